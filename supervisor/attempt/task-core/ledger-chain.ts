import {readIfPresent} from '../../../files/read-if-present.js';
import {join} from 'node:path';
import {changedFiles, checkChain, keyStoreDir, readAttemptKey, type ChainLine, type LinkVerdict} from '../../evidence/seal/index.js';
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
 */
export async function verifyLedger(dir: string, attemptId: string, recordedSealed: boolean): Promise<VerifiedLedger> {
	const lines = await readLines(join(dir, 'ledger.jsonl'));
	const key = readAttemptKey(attemptId);
	const records = lines.filter(line => line.record !== null).length;
	const torn = lines.length > 0 && lines.at(-1)!.record === null ? [lines.at(-1)!.line] : [];
	const chained = torn.length > 0 ? lines.slice(0, -1) : lines;
	if (!recordedSealed && key === null && !chained.some(line => line.record?.seal !== undefined)) return {...unsealedLedger(chained), records, torn};
	if (key === null) return {...withoutKey(chained, attemptId), records, torn};
	const verdicts = checkChain(key, attemptId, chained);
	return {seal: 'sealed', records, torn, ...trustChain(dir, chained, verdicts)};
}

async function readLines(path: string): Promise<ChainLine[]> {
	const text = await readIfPresent(path) ?? '';
	const lines: ChainLine[] = [];
	text.split('\n').forEach((line, index) => {
		if (line.trim() === '') return;
		lines.push({line: index + 1, record: parseLine(line)});
	});
	return lines;
}

function parseLine(line: string): ChainLine['record'] {
	try {
		const raw: unknown = JSON.parse(line);
		// The MAC is checked over the bytes as written (raw JSON), the record's shape by its schema.
		return LedgerRecord.safeParse(raw).success ? raw as ChainLine['record'] : null;
	} catch {
		return null;
	}
}

/** A ledger from before the seal: read as it always was, the last record of an entry standing. */
function unsealedLedger(lines: ChainLine[]): Pick<VerifiedLedger, 'seal' | 'trusted' | 'distrusted' | 'problems'> {
	const trusted = new Map<number, LedgerRecord>();
	for (const {record} of lines) if (record !== null) trusted.set(LedgerRecord.parse(record).result.index, LedgerRecord.parse(record));
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

/** The chain's verdicts applied to entries: a record that does not hold, or a second one, makes its entry untrusted. */
function trustChain(dir: string, lines: ChainLine[], verdicts: LinkVerdict[]): Pick<VerifiedLedger, 'trusted' | 'distrusted' | 'problems'> {
	const trusted = new Map<number, LedgerRecord>();
	const distrusted = new Map<number, string>();
	const problems: string[] = [];
	const distrust = (line: number, record: ChainLine['record'], why: string): void => {
		const entry = entryOf(record);
		const problem = `ledger line ${line}${entry === null ? '' : ` (entry ${entry.task_id})`}: ${why}`;
		problems.push(problem);
		if (entry === null) return;
		trusted.delete(entry.index);
		const earlier = distrusted.get(entry.index);
		distrusted.set(entry.index, earlier === undefined ? problem : `${earlier}; ${problem}`);
	};
	lines.forEach(({line, record}, at) => {
		const verdict = verdicts[at]!;
		if (verdict !== 'sealed') return distrust(line, record, brokenLink[verdict]);
		const sealed = LedgerRecord.parse(record);
		const index = sealed.result.index;
		if (trusted.has(index) || distrusted.has(index)) return distrust(line, record, 'a second record for this entry');
		const changed = changedFiles(dir, sealed.seal!.files);
		if (changed.length > 0) return distrust(line, record, changed.join('; '));
		trusted.set(index, sealed);
	});
	return {trusted, distrusted, problems};
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
