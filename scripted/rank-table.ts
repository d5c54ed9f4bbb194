import type {TiktokenBPE} from 'js-tiktoken/lite';

/**
 * The tokenizer's ranks as one flat table, written by the build (scripts/bundle.mjs) and read at a scripted server's
 * start in a few milliseconds: indexing the library's ranks text took ~100 ms of CPU in every scripted attempt, and
 * importing it ~35 ms more. Each token's bytes sit in rank order in one blob; a second list orders the ranks by their
 * bytes, so a lookup is a binary search over the blob, with no string or map made per token.
 *
 * Layout: `magic`, the header's length, the header (JSON, padded to 4 bytes), then, in 32-bit words of this machine's
 * byte order (the magic tells another's apart): the token count, its bytes' offsets in rank order (one more than the
 * count), the ranks ordered by bytes, and the bytes.
 */
export interface RankTable {
	/** The ranks text's regular expression for pieces and its special tokens, as the library's constructor takes them. */
	patStr: string;
	specialTokens: Record<string, number>;
	size: number;
	rankOf(bytes: Uint8Array): number | undefined;
	bytesOf(rank: number): Uint8Array | undefined;
}

const magic = 0x686c_6231;

/** The table for a ranks text (`! OFFSET TOKEN...` lines of base64 tokens with consecutive ranks from OFFSET). */
export function encodeRankTable(ranks: TiktokenBPE): Buffer {
	const tokens = tokensByRank(ranks.bpe_ranks);
	const header = Buffer.from(JSON.stringify({pat_str: ranks.pat_str, special_tokens: ranks.special_tokens}));
	const headerWords = Math.ceil(header.length / 4);
	const offsets = new Uint32Array(tokens.length + 1);
	for (let rank = 0; rank < tokens.length; rank++) offsets[rank + 1] = offsets[rank]! + tokens[rank]!.length;
	const blob = Buffer.concat(tokens);
	const byBytes = Uint32Array.from(tokens.keys()).sort((a, b) => Buffer.compare(tokens[a]!, tokens[b]!));
	const head = Buffer.from(new Uint32Array([magic, header.length, ...new Uint32Array(headerWords), tokens.length]).buffer);
	header.copy(head, 8);
	return Buffer.concat([head, Buffer.from(offsets.buffer), Buffer.from(byBytes.buffer), blob]);
}

/** The table in `buffer`, or null when it is not a whole one this machine wrote (another byte order or layout, cut short). */
export function decodeRankTable(buffer: Buffer): RankTable | null {
	if (buffer.length < 8 || words(buffer, 0, 1)[0] !== magic) return null;
	const headerLength = words(buffer, 4, 1)[0]!;
	const countAt = 8 + Math.ceil(headerLength / 4) * 4;
	if (buffer.length < countAt + 4) return null;
	const count = words(buffer, countAt, 1)[0]!;
	const offsetsAt = countAt + 4;
	const byBytesAt = offsetsAt + 4 * (count + 1);
	const blobAt = byBytesAt + 4 * count;
	if (buffer.length < blobAt) return null;
	const offsets = words(buffer, offsetsAt, count + 1);
	if (buffer.length !== blobAt + offsets[count]!) return null;
	const byBytes = words(buffer, byBytesAt, count);
	const blob = buffer.subarray(blobAt);
	const {pat_str: patStr, special_tokens: specialTokens} = JSON.parse(buffer.toString('utf8', 8, 8 + headerLength)) as {pat_str: string; special_tokens: Record<string, number>};
	const bytesOf = (rank: number): Uint8Array | undefined => (Number.isInteger(rank) && rank >= 0 && rank < count ? blob.subarray(offsets[rank], offsets[rank + 1]) : undefined);
	return {patStr, specialTokens, size: count, bytesOf, rankOf: bytes => search(bytes, byBytes, offsets, blob)};
}

/** Every token's bytes, indexed by rank; the ranks of the text are 0 to n-1, each once. */
function tokensByRank(text: string): Buffer[] {
	const tokens: Buffer[] = [];
	for (const line of text.split('\n')) {
		const [, offset, ...encoded] = line.split(' ');
		if (offset === undefined) continue;
		encoded.forEach((token, index) => (tokens[Number.parseInt(offset, 10) + index] = Buffer.from(token, 'base64')));
	}
	if (tokens.some(token => token === undefined)) throw new Error('the ranks text leaves a rank without a token');
	return tokens;
}

/** The rank whose bytes are `bytes`: a binary search over the ranks ordered by bytes. */
function search(bytes: Uint8Array, byBytes: Uint32Array, offsets: Uint32Array, blob: Uint8Array): number | undefined {
	let low = 0;
	let high = byBytes.length - 1;
	while (low <= high) {
		const middle = (low + high) >>> 1;
		const rank = byBytes[middle]!;
		const order = compare(bytes, blob, offsets[rank]!, offsets[rank + 1]!);
		if (order === 0) return rank;
		if (order < 0) high = middle - 1;
		else low = middle + 1;
	}
	return undefined;
}

/** Buffer.compare's order of `bytes` against blob[start, end), without making a view of the blob per comparison. */
function compare(bytes: Uint8Array, blob: Uint8Array, start: number, end: number): number {
	const length = Math.min(bytes.length, end - start);
	for (let index = 0; index < length; index++) {
		const difference = bytes[index]! - blob[start + index]!;
		if (difference !== 0) return difference;
	}
	return bytes.length - (end - start);
}

/** 32-bit words of the buffer, in place where they are aligned (a file read whole is), copied where not. */
function words(buffer: Buffer, offset: number, count: number): Uint32Array {
	const start = buffer.byteOffset + offset;
	if (start % 4 === 0) return new Uint32Array(buffer.buffer, start, count);
	return new Uint32Array(buffer.buffer.slice(start, start + 4 * count));
}
