/** Erases the lines it drew last and draws new ones: a few redrawn lines at the bottom of a terminal. */
export class LiveDisplay {
	#drawn = 0;

	constructor(readonly out: NodeJS.WriteStream) {}

	/** Replaces the previous frame with `lines` in one write, so a reader never sees a half-erased frame. */
	render(lines: string[]): void {
		const fitted = lines.map(line => this.#fit(line));
		this.out.write(`${this.#erase()}${fitted.join('\n')}\n`);
		this.#drawn = fitted.length;
	}

	/** Leaves the last frame on screen: what comes next is written below it. */
	persist(): void {
		this.#drawn = 0;
	}

	/** Cursor up over the previous frame, then clear to the end of the screen. */
	#erase(): string {
		return this.#drawn === 0 ? '' : `\x1b[${this.#drawn}A\r\x1b[J`;
	}

	/** A line wider than the terminal would wrap and throw the line count of the next erase off. */
	#fit(line: string): string {
		const width = this.out.columns;
		if (!width || line.length < width) return line;
		return `${line.slice(0, Math.max(width - 2, 0))}…`;
	}
}
