import {appendFileSync} from 'node:fs';

/** An append-only JSON-lines file; each record is written through before `append` returns, so a crash keeps it. */
export class JsonlLog {
	private seq = 0;
	private readonly startedAt = performance.now();

	constructor(readonly path: string) {}

	/** Creates the file when it is missing. */
	touch(): void {
		appendFileSync(this.path, '');
	}

	append(type: string, fields: Record<string, unknown>): void {
		const record = {seq: this.seq++, type, at: new Date().toISOString(), t_ms: Math.round(performance.now() - this.startedAt), ...fields};
		appendFileSync(this.path, `${JSON.stringify(record)}\n`);
	}
}
