import {Tiktoken} from 'js-tiktoken/lite';

let encoder: Tiktoken | null = null;

/**
 * Loads the cl100k_base tokenizer, bundled with js-tiktoken (no network), once per process. Its ranks (half the size of o200k's) are a large
 * module that takes a second to build, so only a process that starts a scripted server pays for it.
 */
export async function loadTokenizer(): Promise<Tiktoken> {
	if (encoder === null) {
		const ranks = (await import('js-tiktoken/ranks/cl100k_base')).default;
		encoder ??= new Tiktoken(ranks);
	}
	return encoder;
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
