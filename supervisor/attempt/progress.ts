import type {TaskResult} from './report-schema.js';

/** Tasks done, passed, failed and running with elapsed time: one redrawn line on a terminal, plain lines otherwise. */
export class Progress {
	#done = 0;
	#passed = 0;
	#failed = 0;
	#running = 0;
	readonly #t0 = performance.now();
	readonly #tty: boolean;
	#timer: NodeJS.Timeout | undefined;

	constructor(readonly total: number, readonly out: NodeJS.WriteStream = process.stderr, readonly quiet = false) {
		this.#tty = out.isTTY === true;
		if (this.#tty && !quiet) this.#timer = setInterval(() => this.#draw(), 500).unref();
	}

	started(): void {
		this.#running += 1;
		this.#draw();
	}

	finished(result: TaskResult, wasRunning: boolean): void {
		if (wasRunning) this.#running -= 1;
		this.#done += 1;
		if (result.status === 'passed') this.#passed += 1;
		else this.#failed += 1;
		if (this.quiet) return;
		if (this.#tty) this.#draw();
		else this.out.write(`[${this.#done}/${this.total}] ${result.task_id}: ${result.status}${result.reason ? ` (${result.reason})` : ''} ${this.#elapsed()}\n`);
	}

	end(): void {
		clearInterval(this.#timer);
		if (this.#tty && !this.quiet) {
			this.#draw();
			this.out.write('\n');
		}
	}

	#elapsed(): string {
		return `${((performance.now() - this.#t0) / 1000).toFixed(1)}s`;
	}

	#draw(): void {
		if (!this.#tty || this.quiet) return;
		this.out.write(`\r\x1b[2Ktasks ${this.#done}/${this.total} done, ${this.#passed} passed, ${this.#failed} failed, ${this.#running} running, ${this.#elapsed()} elapsed`);
	}
}
