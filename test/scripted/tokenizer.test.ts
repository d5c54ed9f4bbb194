import {readFile} from 'node:fs/promises';
import t from 'tap';
import {Tiktoken} from 'js-tiktoken/lite';
import {decodeRankTable} from '../../scripted/rank-table.js';
import {cl100kTable, loadTokenizer, rankTablePath, tokenizerOf} from '../../scripted/tokenizer.js';

const ranks = (await import('js-tiktoken/ranks/cl100k_base')).default;

type Tables = {rankMap: Map<string, number>; textMap: Map<number, Uint8Array>};

t.test('the build wrote the table of the ranks the library ships', async t => {
	t.ok((await readFile(rankTablePath)).equals(await cl100kTable()), `${rankTablePath} is the table of js-tiktoken's cl100k_base`);
});

t.test('the tokenizer over the table has the library constructor\'s tables, entry for entry', async t => {
	const library = new Tiktoken(ranks) as unknown as Tables;
	const built = tokenizerOf(decodeRankTable(await readFile(rankTablePath))!) as unknown as Tables;
	t.equal(built.rankMap.size, library.rankMap.size, 'as many ranks');
	t.equal(built.textMap.size, library.textMap.size, 'as many texts');
	let rankDifferences = 0;
	for (const [bytes, rank] of library.rankMap) if (built.rankMap.get(bytes) !== rank) rankDifferences++;
	let textDifferences = 0;
	for (const [rank, bytes] of library.textMap) if (built.textMap.get(rank)?.join(',') !== bytes.join(',')) textDifferences++;
	t.equal(rankDifferences, 0, 'every byte sequence has the same rank');
	t.equal(textDifferences, 0, 'every rank decodes to the same bytes');
	for (const missing of ['1,2,3,4,5,6,7,8', '255,255,255', Array(90).fill(32).join(',')]) t.equal(built.rankMap.get(missing), library.rankMap.get(missing), `no rank for [${missing.slice(0, 20)}], as in the library`);
	for (const rank of [-1, 100_256, 1.5]) t.equal(built.textMap.get(rank), undefined, `no bytes for rank ${rank}`);
});

t.test('it encodes and decodes as the library does', async t => {
	const library = new Tiktoken(ranks);
	const built = await loadTokenizer();
	const text = 'Hello, world! function add(a, b) { return a + b; }\n\tnaïve café — 数字 🚀 <|endoftext|> aaaaaaaaaaaa';
	t.same(built.encode(text, [], []), library.encode(text, [], []));
	t.equal(built.decode(built.encode(text, [], [])), text);
	t.same(built.encode('<|endoftext|>', 'all'), library.encode('<|endoftext|>', 'all'), 'special tokens too');
});

t.test('a table written in another byte order, cut short or no table at all is refused, not misread', async t => {
	const table = await cl100kTable();
	const swapped = Buffer.from(table);
	swapped.writeUInt32BE(swapped.readUInt32LE(0), 0);
	t.equal(decodeRankTable(swapped), null, 'another byte order');
	for (const length of [table.length - 1, 100_000, 9]) t.equal(decodeRankTable(table.subarray(0, length)), null, `cut at ${length} bytes`);
	t.equal(decodeRankTable(Buffer.from('not a table')), null, 'text');
	t.equal(decodeRankTable(Buffer.alloc(0)), null, 'empty');
});
