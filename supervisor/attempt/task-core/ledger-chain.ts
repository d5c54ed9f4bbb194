import {open} from 'node:fs/promises';
import {join} from 'node:path';
import {ChainWalk, changedFiles, keyStoreDir, readAttemptKey, type ChainLine, type LinkVerdict} from '../../evidence/seal/index.js';
import {LedgerRecord} from '../report/report-schema.js';

/** A ledger as its seal lets it be trusted. */
export interface VerifiedLedger {
	/** `sealed`: walked with the attempt's key; `unsealed`: a ledger from before the seal; `no_key`: sealed, but this user's key store has no key for it. */
	seal: 'sealed' | 'unsealed' | 'no_key';
	/** How many records the ledger holds (readable lines). */
	records: number;
	/** The one trusted record of each entry, by the entry's index. */
	trusted: Map<number, LedgerRecord>;
	/** Entries named by a record that cannot be trusted (forged, a duplicate, out of the chain, files changed), with why. */
	distrusted: Map<number, string>;
	/** Every problem of the chain, each naming its ledger line and entry. */
	problems: string[];
	/** A torn last line (a crash while it was written), by line number: no record, no break. */
	torn: number[];
}

/**
 * Reads `ledger.jsonl` of an attempt and trusts only what its seal vouches for: records of an unbroken MAC chain, one
 * per entry, whose sealed files are unchanged. A ledger is held to its seal when attempt.json says it was sealed, when
 * the key store holds its attempt's key, or when any record carries a seal: stripping the seals does not make it old.
 * With the key, the ledger is read as a stream and each line verified as it comes: only the trusted records are kept.
 */
export async function verifyLedger(dir: string, attemptId: string, recordedSealed: boolean): Promise<VerifiedLedger> {
	const path = join(dir, 'ledger.jsonl');
	const key = readAttemptKey(attemptId);
	if (key === null) return verifyWithoutKey(await collect(ledgerLines(path)), attemptId, recordedSealed);
	const trust = new ChainTrust(dir, new ChainWalk(key, attemptId));
	let records = 0;
	// One line behind the reader: only the last line can be torn, and a torn last line is no break of the chain.
	let pending: ReadLine | null = null;
	for await (const line of ledgerLines(path)) {
		if (line.record !== null) records += 1;
		if (pending !== null) trust.add(pending);
		pending = line;
	}
	const torn = pending !== null && pending.record === null ? [pending.line] : [];
	if (pending !== null && torn.length === 0) trust.add(pending);
	return {seal: 'sealed', records, torn, ...trust.result()};
}

/** Without the key (a ledger from before the seal, or another user's store): read whole as it always was, the rare path. */
function verifyWithoutKey(lines: ReadLine[], attemptId: string, recordedSealed: boolean): VerifiedLedger {
	const records = lines.filter(line => line.record !== null).length;
	const torn = lines.length > 0 && lines.at(-1)!.record === null ? [lines.at(-1)!.line] : [];
	const chained = torn.length > 0 ? lines.slice(0, -1) : lines;
	if (!recordedSealed && !chained.some(line => line.record?.seal !== undefined)) return {...unsealedLedger(chained), records, torn};
	return {...withoutKey(chained, attemptId), records, torn};
}

/** A ledger line as read: its raw record (the MAC is over these bytes' JSON) and the same record through its schema. */
interface ReadLine extends ChainLine {
	parsed: LedgerRecord | null;
}

/** The non-blank lines of a ledger one at a time, numbered as in the file; none when there is no ledger. */
async function* ledgerLines(path: string): AsyncGenerator<ReadLine> {
	const handle = await open(path).catch((error: NodeJS.ErrnoException) => {
		if (error.code === 'ENOENT') return null;
		throw error;
	});
	if (handle === null) return;
	try {
		let number = 0;
		for await (const text of handle.readLines({encoding: 'utf8'})) {
			number += 1;
			if (text.trim() !== '') yield {line: number, ...parseLine(text)};
		}
	} finally {
		await handle.close();
	}
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
	const out: T[] = [];
	for await (const item of items) out.push(item);
	return out;
}

function parseLine(line: string): Pick<ReadLine, 'record' | 'parsed'> {
	try {
		const raw: unknown = JSON.parse(line);
		// The MAC is checked over the bytes as written (raw JSON), the record's shape by its schema.
		const parsed = LedgerRecord.safeParse(raw);
		return parsed.success ? {record: raw as ChainLine['record'], parsed: parsed.data} : {record: null, parsed: null};
	} catch {
		return {record: null, parsed: null};
	}
}

/** A ledger from before the seal: read as it always was, the last record of an entry standing. */
function unsealedLedger(lines: ReadLine[]): Pick<VerifiedLedger, 'seal' | 'trusted' | 'distrusted' | 'problems'> {
	const trusted = new Map<number, LedgerRecord>();
	for (const {parsed} of lines) if (parsed !== null) trusted.set(parsed.result.index, parsed);
	const unreadable = lines.filter(line => line.record === null).map(line => line.line);
	return {seal: 'unsealed', trusted, distrusted: new Map(), problems: unreadable.length > 0 ? [`ledger lines ${unreadable.join(', ')} could not be read`] : []};
}

function withoutKey(lines: ChainLine[], attemptId: string): Pick<VerifiedLedger, 'seal' | 'trusted' | 'distrusted' | 'problems'> {
	const why = `the key of attempt ${attemptId} is not in this user's key store (${keyStoreDir()}): its seal cannot be verified`;
	const distrusted = new Map<number, string>();
	for (const {record} of lines) {
		const entry = entryOf(record);
		if (entry !== null) distrusted.set(entry.index, why);
	}
	return {seal: 'no_key', trusted: new Map(), distrusted, problems: [why]};
}

/** The chain's verdicts applied to entries, line by line: a record that does not hold, or a second one, makes its entry untrusted. */
class ChainTrust {
	readonly #trusted = new Map<number, LedgerRecord>();
	readonly #distrusted = new Map<number, string>();
	readonly #problems: string[] = [];

	constructor(private readonly dir: string, private readonly walk: ChainWalk) {}

	add({line, record, parsed}: ReadLine): void {
		const verdict = this.walk.next(record);
		if (verdict !== 'sealed') return this.#distrust(line, record, brokenLink[verdict]);
		const index = parsed!.result.index;
		if (this.#trusted.has(index) || this.#distrusted.has(index)) return this.#distrust(line, record, 'a second record for this entry');
		const changed = changedFiles(this.dir, parsed!.seal!.files);
		if (changed.length > 0) return this.#distrust(line, record, changed.join('; '));
		this.#trusted.set(index, parsed!);
	}

	result(): Pick<VerifiedLedger, 'trusted' | 'distrusted' | 'problems'> {
		return {trusted: this.#trusted, distrusted: this.#distrusted, problems: this.#problems};
	}

	#distrust(line: number, record: ChainLine['record'], why: string): void {
		const entry = entryOf(record);
		const problem = `ledger line ${line}${entry === null ? '' : ` (entry ${entry.task_id})`}: ${why}`;
		this.#problems.push(problem);
		if (entry === null) return;
		this.#trusted.delete(entry.index);
		const earlier = this.#distrusted.get(entry.index);
		this.#distrusted.set(entry.index, earlier === undefined ? problem : `${earlier}; ${problem}`);
	}
}

const brokenLink: Record<Exclude<LinkVerdict, 'sealed'>, string> = {
	forged: 'its MAC does not verify over the record before it (forged, edited, reordered, or a record before it was removed)',
	unsealed: 'an unsealed record in a sealed ledger',
	unreadable: 'not a ledger record: the chain breaks here',
	after_break: 'after a broken link of the chain, not trusted',
};

/** The entry a record names, read from untrusted JSON without trusting anything else of it. */
function entryOf(record: ChainLine['record']): {index: number; task_id: string} | null {
	const result = (record as {result?: {index?: unknown; task_id?: unknown}} | null)?.result;
	return typeof result?.index === 'number' && typeof result.task_id === 'string' ? {index: result.index, task_id: result.task_id} : null;
}
