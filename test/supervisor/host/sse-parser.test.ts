import t from 'tap';
import {SseParser, type SseEvent} from '../../../supervisor/host/sse-parser.js';

const stream = 'event: response.created\ndata: {"a":"é€"}\n\n: a comment\r\ndata: one\r\ndata:two\r\n\r\ndata: [DONE]\rid: 7\r\rdata: last';
const expected: SseEvent[] = [
	{event: 'response.created', data: '{"a":"é€"}'},
	{event: null, data: 'one\ntwo'},
	{event: null, data: '[DONE]'},
	{event: null, data: 'last'},
];

function parse(pieces: Uint8Array[]): SseEvent[] {
	const parser = new SseParser();
	return [...pieces.flatMap(piece => parser.push(piece)), ...parser.end()];
}

t.test('events come out whole however the bytes are split: inside a line, a CRLF, a multi-byte character', async t => {
	const bytes = new TextEncoder().encode(stream);
	t.same(parse([bytes]), expected, 'one chunk');
	for (let cut = 1; cut < bytes.length; cut++) t.same(parse([bytes.subarray(0, cut), bytes.subarray(cut)]), expected, `cut at byte ${cut}`);
	t.same(parse([...bytes].map(byte => Uint8Array.of(byte))), expected, 'byte by byte');
});

t.test('an event is given out as soon as its blank line arrives, not at the end', async t => {
	const parser = new SseParser();
	t.same(parser.push(new TextEncoder().encode('data: x\n')), [], 'not yet: no blank line');
	t.same(parser.push(new TextEncoder().encode('\ndata: y')), [{event: null, data: 'x'}]);
	t.same(parser.end(), [{event: null, data: 'y'}]);
});
