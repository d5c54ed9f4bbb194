import {Tiktoken, type TiktokenBPE} from 'js-tiktoken/lite';

let encoder: Tiktoken | null = null;

/**
 * Loads the cl100k_base tokenizer, bundled with js-tiktoken (no network), once per process. Its ranks (half the size of o200k's) are a large
 * module that takes a second to build, so only a process that starts a scripted server pays for it.
 */
export async function loadTokenizer(): Promise<Tiktoken> {
	if (encoder === null) {
		const ranks = (await import('js-tiktoken/ranks/cl100k_base')).default;
		encoder ??= buildTokenizer(ranks);
	}
	return encoder;
}

/**
 * The library's constructor fills a map of 100k byte sequences to ranks (about 0.4 s of CPU in every process that starts
 * a scripted server, measured). A scripted attempt looks up a few thousand of them, so these tables index the ranks
 * text as it is (base64 tokens) and decode an entry the first time it is asked for; js-tiktoken reads its tables only
 * through `get`. test/scripted/tokenizer.test.ts holds them equal to the constructor's, entry for entry.
 */
export function buildTokenizer(ranks: TiktokenBPE): Tiktoken {
	const built = new Tiktoken({...ranks, bpe_ranks: ''});
	const rankOf = indexRanks(ranks.bpe_ranks);
	Object.assign(built, {rankMap: new RankLookup(rankOf), textMap: new TextLookup(rankOf)});
	return built;
}

/** A line of the ranks text is `! OFFSET TOKEN...`: the tokens, in base64, have consecutive ranks from OFFSET. */
function indexRanks(text: string): Map<string, number> {
	const rankOf = new Map<string, number>();
	for (const line of text.split('\n')) {
		const fields = line.split(' ');
		if (fields.length < 2) continue;
		const offset = Number.parseInt(fields[1]!, 10);
		for (let index = 2; index < fields.length; index++) {
			rankOf.set(fields[index]!, offset + index - 2);
		}
	}
	return rankOf;
}

/** Byte sequence (`1,2,3`, the library's key) to rank, found in the base64 index on first use and kept. */
class RankLookup {
	// -1: looked up, not a token (most lookups of byte-pair merging are such misses).
	readonly #found = new Map<string, number>();
	constructor(readonly byBase64: Map<string, number>) {}

	get size(): number {
		return this.byBase64.size;
	}

	get(bytes: string): number | undefined {
		let rank = this.#found.get(bytes);
		if (rank === undefined) {
			rank = this.byBase64.get(Buffer.from(bytes.split(',').map(Number)).toString('base64')) ?? -1;
			this.#found.set(bytes, rank);
		}
		return rank < 0 ? undefined : rank;
	}
}

/**
 * Rank to bytes, for decoding. Its table is made when first asked: counting tokens, all a scripted server does, never
 * decodes (~10 ms a start).
 */
class TextLookup {
	#tokenOf: Map<number, string> | null = null;
	constructor(readonly rankOf: Map<string, number>) {}

	get size(): number {
		return this.table().size;
	}

	get(rank: number): Uint8Array | undefined {
		const token = this.table().get(rank);
		return token === undefined ? undefined : Uint8Array.from(Buffer.from(token, 'base64'));
	}

	private table(): Map<number, string> {
		this.#tokenOf ??= new Map([...this.rankOf].map(([token, rank]) => [rank, token]));
		return this.#tokenOf;
	}
}

function tokenizer(): Tiktoken {
	if (encoder === null) throw new Error('the tokenizer is not loaded (call loadTokenizer first)');
	return encoder;
}

/**
 * Byte-pair merging is quadratic in the length of one word, so a long run without whitespace (minified code,
 * base64, `aaaa...`) is tokenized in pieces of this many characters; the count differs from a whole-run count by
 * at most a token per piece.
 */
const longRun = 100;
const longRuns = new RegExp(`\\S{${longRun},}`, 'g');

function encodeShort(text: string, into: number[]): void {
	for (const token of tokenizer().encode(text, [], [])) into.push(token);
}

/** Tokens of plain text; special-token markers in the text are counted as ordinary text. */
export function encode(text: string): number[] {
	const tokens: number[] = [];
	let done = 0;
	for (const match of text.matchAll(longRuns)) {
		encodeShort(text.slice(done, match.index), tokens);
		for (let start = 0; start < match[0].length; start += longRun) encodeShort(match[0].slice(start, start + longRun), tokens);
		done = match.index + match[0].length;
	}
	encodeShort(text.slice(done), tokens);
	return tokens;
}
