import {open, readFile} from 'node:fs/promises';
import {LedgerRecord, ledgerRecordSchema, type TaskResult} from './report-schema.js';

/** Appends one record per line; each is on disk (fsync) before the next one starts. */
export class Ledger {
	#chain: Promise<void> = Promise.resolve();

	constructor(readonly path: string, readonly attemptId: string) {}

	append(result: TaskResult): Promise<void> {
		const record: LedgerRecord = {schema: ledgerRecordSchema, attempt_id: this.attemptId, recorded_at: new Date().toISOString(), result};
		const line = `${JSON.stringify(LedgerRecord.parse(record))}\n`;
		const next = this.#chain.then(() => appendDurably(this.path, line));
		// A failed append must not block the records after it; the caller sees its own failure.
		this.#chain = next.catch(() => undefined);
		return next;
	}
}

async function appendDurably(path: string, line: string): Promise<void> {
	const handle = await open(path, 'a');
	try {
		await handle.writeFile(line);
		// Bench-only: `HLAB_BENCH_LEDGER_FSYNC=0` skips the flush so bench/ledger-cost can measure what it costs. Never set it otherwise.
		if (process.env['HLAB_BENCH_LEDGER_FSYNC'] !== '0') await handle.sync();
	} finally {
		await handle.close();
	}
}

export interface LedgerRead {
	records: LedgerRecord[];
	/** Lines that could not be read as records (a torn last line after a crash), by line number. */
	unreadable: number[];
}

/** Reads a ledger, keeping every valid record; a missing file is an empty ledger. */
export async function readLedger(path: string): Promise<LedgerRead> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {records: [], unreadable: []};
		throw error;
	}
	const records: LedgerRecord[] = [];
	const unreadable: number[] = [];
	text.split('\n').forEach((line, index) => {
		if (line.trim() === '') return;
		try {
			records.push(LedgerRecord.parse(JSON.parse(line)));
		} catch {
			unreadable.push(index + 1);
		}
	});
	return {records, unreadable};
}
