import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {Tiktoken} from 'js-tiktoken/lite';
import {installRoot} from '../files/install-root.js';
import {decodeRankTable, encodeRankTable, type RankTable} from './rank-table.js';

/** Where the build writes the cl100k_base ranks as a table (scripts/bundle.mjs). */
export const rankTablePath = join(installRoot, 'dist', 'scripted', 'cl100k_base.ranks');

let encoder: Tiktoken | null = null;

/**
 * Loads the cl100k_base tokenizer, bundled with js-tiktoken (no network), once per process: from the table the build
 * wrote (~7 ms), or, in a build without one (tsc alone), from the library's ranks text made into that table (~0.5 s).
 */
export async function loadTokenizer(): Promise<Tiktoken> {
	encoder ??= tokenizerOf(await readRankTable() ?? decodeRankTable(await cl100kTable())!);
	return encoder;
}

/** The table of the cl100k_base ranks as the library ships them: what the build writes to rankTablePath. */
export async function cl100kTable(): Promise<Buffer> {
	return encodeRankTable((await import('js-tiktoken/ranks/cl100k_base')).default);
}

async function readRankTable(): Promise<RankTable | null> {
	try {
		return decodeRankTable(await readFile(rankTablePath));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw error;
	}
}

/**
 * The library's tokenizer over the table: its constructor would fill a map of 100k byte sequences to ranks, and it
 * reads its tables only through `get`. test/scripted/tokenizer.test.ts holds them equal to the constructor's, entry
 * for entry.
 */
export function tokenizerOf(table: RankTable): Tiktoken {
	const built = new Tiktoken({pat_str: table.patStr, special_tokens: table.specialTokens, bpe_ranks: ''});
	Object.assign(built, {rankMap: new RankLookup(table), textMap: {size: table.size, get: (rank: number) => table.bytesOf(rank)}});
	return built;
}

/** Byte sequence (`1,2,3`, the library's key) to rank, searched in the table on first use and kept. */
class RankLookup {
	// -1: looked up, not a token (most lookups of byte-pair merging are such misses).
	readonly #found = new Map<string, number>();
	constructor(readonly table: RankTable) {}

	get size(): number {
		return this.table.size;
	}

	get(bytes: string): number | undefined {
		let rank = this.#found.get(bytes);
		if (rank === undefined) {
			rank = this.table.rankOf(Uint8Array.from(bytes.split(','), Number)) ?? -1;
			this.#found.set(bytes, rank);
		}
		return rank < 0 ? undefined : rank;
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
