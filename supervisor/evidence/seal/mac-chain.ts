import {createHmac, timingSafeEqual} from 'node:crypto';
import {z} from 'zod';
import {canonicalJson} from '../../../files/canonical-json.js';

export const sealScheme = 'harness-lab/hmac-sha256-chain@1';

/** A ledger record's seal: the evidence files it vouches for with their digests, and its MAC. */
export const RecordSeal = z.object({
	scheme: z.literal(sealScheme),
	/** Every exported evidence file of the task (result.json among them), relative to the evidence directory, with its sha256 digest. */
	files: z.record(z.string(), z.string()),
	/** HMAC-SHA256 with the attempt's key over the previous record's MAC (the first: over the attempt id) and this record without its MAC. */
	mac: z.string(),
});
export type RecordSeal = z.infer<typeof RecordSeal>;

type Unsealed = Record<string, unknown>;

/** The MAC of a record given the one before it: what a record says and where it stands in the chain, both. */
export function recordMac(key: Buffer, previous: string, record: Unsealed, files: Record<string, string>): string {
	const body = {...record, seal: {scheme: sealScheme, files}};
	return createHmac('sha256', key).update(previous).update('\n').update(canonicalJson(body)).digest('hex');
}

/** A record with its seal; its MAC is the `previous` of the next record. */
export function sealRecord<T extends Unsealed>(key: Buffer, previous: string, record: T, files: Record<string, string>): T & {seal: RecordSeal} {
	return {...record, seal: {scheme: sealScheme, files, mac: recordMac(key, previous, record, files)}};
}

/** How one ledger line stands in the chain. */
export type LinkVerdict = 'sealed' | 'unsealed' | 'unreadable' | 'forged' | 'after_break';

/** A ledger line as read: null when it is not a record at all. */
export interface ChainLine {
	line: number;
	record: (Unsealed & {seal?: RecordSeal}) | null;
}

/**
 * Walks the chain from the attempt id: a line holds only when its MAC verifies over the line before it. The first line
 * that does not (forged, edited, reordered, or one before it removed) breaks the chain, and nothing after it is trusted.
 */
export function checkChain(key: Buffer, attemptId: string, lines: ChainLine[]): LinkVerdict[] {
	const walk = new ChainWalk(key, attemptId);
	return lines.map(({record}) => walk.next(record));
}

/** The same walk one line at a time, so that a ledger is verified as it is read and never held whole. */
export class ChainWalk {
	#previous: string;
	#broken = false;

	constructor(private readonly key: Buffer, attemptId: string) {
		this.#previous = attemptId;
	}

	next(record: ChainLine['record']): LinkVerdict {
		if (this.#broken) return 'after_break';
		const verdict = linkVerdict(this.key, this.#previous, record);
		if (verdict === 'sealed') this.#previous = record!.seal!.mac;
		else this.#broken = true;
		return verdict;
	}
}

function linkVerdict(key: Buffer, previous: string, record: ChainLine['record']): LinkVerdict {
	if (record === null) return 'unreadable';
	const {seal, ...rest} = record;
	if (seal === undefined) return 'unsealed';
	const expected = Buffer.from(recordMac(key, previous, rest, seal.files), 'hex');
	const given = Buffer.from(seal.mac, 'hex');
	return given.length === expected.length && timingSafeEqual(given, expected) ? 'sealed' : 'forged';
}
