import {open, readFile} from 'node:fs/promises';
import {dirname} from 'node:path';
import {sealedFiles, sealRecord} from '../../evidence/seal/index.js';
import {LedgerRecord, ledgerRecordSchema, type TaskResult} from '../report/report-schema.js';

/**
 * Appends one sealed record per line: each carries the digests of its task's evidence files and a MAC chained over the
 * record before it (the first over the attempt id), with the attempt's key. A record is on disk (fsync) before its append resolves. Records that arrive while a
 * flush is under way wait for it and then go to disk together, one write and one fsync (group commit), in call order.
 */
export class Ledger {
	/** Lines waiting for the next flush, each with its caller. */
	#waiting: Array<{line: string; settle: (error: Error | null) => void}> = [];
	#flushing = false;
	/** The MAC the next record chains over. */
	#previous: string;

	constructor(readonly path: string, readonly attemptId: string, private readonly key: Buffer) {
		this.#previous = attemptId;
	}

	/** `written`: digests of evidence files the supervisor has just written, by their name in the evidence directory; the others are read and hashed. */
	append(result: TaskResult, written?: ReadonlyMap<string, string>): Promise<void> {
		const unsealed = LedgerRecord.parse({schema: ledgerRecordSchema, attempt_id: this.attemptId, recorded_at: new Date().toISOString(), result});
		// Sealed and queued in one synchronous step, so the chain's order is the order of the lines.
		const record = sealRecord(this.key, this.#previous, unsealed, sealedFiles(dirname(this.path), result.evidence, written));
		this.#previous = record.seal.mac;
		const line = `${JSON.stringify(record)}\n`;
		return new Promise((resolve, reject) => {
			this.#waiting.push({line, settle: error => (error === null ? resolve() : reject(error))});
			if (!this.#flushing) void this.#flush();
		});
	}

	/** Flushes what is waiting, then whatever arrived meanwhile; a failed flush fails its own records only. */
	async #flush(): Promise<void> {
		this.#flushing = true;
		while (this.#waiting.length > 0) {
			const batch = this.#waiting;
			this.#waiting = [];
			const error = await appendDurably(this.path, batch.map(entry => entry.line).join('')).then(() => null, (failure: unknown) => failure as Error);
			for (const entry of batch) entry.settle(error);
		}
		this.#flushing = false;
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
