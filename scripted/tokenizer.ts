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

/** The two lookup tables js-tiktoken encodes and decodes with (its constructor's own, unexported in its types). */
interface RankTables {
	rankMap: Map<string, number>;
	textMap: Map<number, Uint8Array>;
}

/**
 * The library's constructor fills its tables through an intermediate object of 100k keys (about 0.4 s of CPU, measured,
 * in every process that starts a scripted server); this fills the same tables straight from the ranks text, in about
 * half of that. test/scripted/tokenizer.test.ts holds them equal to the constructor's.
 */
export function buildTokenizer(ranks: TiktokenBPE): Tiktoken {
	const built = new Tiktoken({...ranks, bpe_ranks: ''});
	const {rankMap, textMap} = built as unknown as RankTables;
	for (const line of ranks.bpe_ranks.split('\n')) {
		// A line is `! OFFSET TOKEN...`: the tokens, in base64, have consecutive ranks from OFFSET.
		const fields = line.split(' ');
		if (fields.length < 2) continue;
		const offset = Number.parseInt(fields[1]!, 10);
		for (let index = 2; index < fields.length; index++) {
			const bytes = Uint8Array.from(Buffer.from(fields[index]!, 'base64'));
			rankMap.set(bytes.join(','), offset + index - 2);
			textMap.set(offset + index - 2, bytes);
		}
	}
	return built;
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
