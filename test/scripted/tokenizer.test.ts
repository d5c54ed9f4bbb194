import t from 'tap';
import {Tiktoken} from 'js-tiktoken/lite';
import {buildTokenizer} from '../../scripted/tokenizer.js';

const ranks = (await import('js-tiktoken/ranks/cl100k_base')).default;

type Tables = {rankMap: Map<string, number>; textMap: Map<number, Uint8Array>};

t.test('the tokenizer built from the ranks text has the library constructor\'s tables, entry for entry', async t => {
	const library = new Tiktoken(ranks) as unknown as Tables;
	const built = buildTokenizer(ranks) as unknown as Tables;
	t.equal(built.rankMap.size, library.rankMap.size, 'as many ranks');
	t.equal(built.textMap.size, library.textMap.size, 'as many texts');
	let rankDifferences = 0;
	for (const [bytes, rank] of library.rankMap) if (built.rankMap.get(bytes) !== rank) rankDifferences++;
	let textDifferences = 0;
	for (const [rank, bytes] of library.textMap) if (built.textMap.get(rank)?.join(',') !== bytes.join(',')) textDifferences++;
	t.equal(rankDifferences, 0, 'every byte sequence has the same rank');
	t.equal(textDifferences, 0, 'every rank decodes to the same bytes');
});

t.test('it encodes and decodes as the library does', async t => {
	const library = new Tiktoken(ranks);
	const built = buildTokenizer(ranks);
	const text = 'Hello, world! function add(a, b) { return a + b; }\n\tnaïve café — 数字 🚀 <|endoftext|> aaaaaaaaaaaa';
	t.same(built.encode(text, [], []), library.encode(text, [], []));
	t.equal(built.decode(built.encode(text, [], [])), text);
	t.same(built.encode('<|endoftext|>', 'all'), library.encode('<|endoftext|>', 'all'), 'special tokens too');
});
