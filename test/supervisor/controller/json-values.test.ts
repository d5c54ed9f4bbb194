import t from 'tap';
import {readOneJsonValue} from '../../../supervisor/controller/json-values.js';

const read = (text: string) => readOneJsonValue(Buffer.from(text));

t.test('one value, with any surrounding whitespace, is read', async t => {
	t.same(read(' {"a":[1,"}"]}\n'), {kind: 'one', value: {a: [1, '}']}});
	t.same(read('"text"'), {kind: 'one', value: 'text'});
	t.same(read('42'), {kind: 'one', value: 42});
});

t.test('nothing but whitespace is empty', async t => {
	t.same(read(''), {kind: 'empty'});
	t.same(read('\n \t\r\n'), {kind: 'empty'});
});

t.test('several complete values are counted, whatever separates them', async t => {
	t.same(read('{"a":1}{"b":2}'), {kind: 'multiple', count: 2});
	t.same(read('{"a":"x\\"}"}\n[1]\n"s"\ntrue 3'), {kind: 'multiple', count: 5});
});

t.test('anything that is not a sequence of values is invalid', async t => {
	for (const text of ['hello', '{"a":1} trailing', '{"a":', '}{', '{"a":1}\n{"b":', "{'a':1}", 'NaN']) {
		t.equal(read(text).kind, 'invalid', JSON.stringify(text));
	}
	t.equal(readOneJsonValue(Buffer.from([0x7b, 0xff, 0x7d])).kind, 'invalid', 'bytes that are not UTF-8');
});
