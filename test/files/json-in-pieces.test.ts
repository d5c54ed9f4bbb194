import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {readdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {jsonPieces, writeJsonInPieces} from '../../files/json-in-pieces.js';
import {jsonText} from '../../files/write-json.js';
import {tempDir} from '../temp-dir.js';

class Point {
	constructor(readonly x: number, readonly y: number) {}
}

/** What JSON.stringify treats in its own way, at the walked depths and below them. */
function awkward(): Record<string, unknown> {
	const bare = Object.create(null) as Record<string, unknown>;
	bare.b = 1;
	const keyed = {toJSON: (key: string) => `key ${key}`};
	const everything = {
		empty_array: [], empty_object: {}, only_undefined: {a: undefined, f: () => 1, s: Symbol('s')},
		holes: [undefined, () => 1, Symbol('s'), null, , 3], // eslint-disable-line no-sparse-arrays
		numbers: [0, -0, 1e21, 1.5e-7, Number.NaN, Number.POSITIVE_INFINITY, -1],
		strings: ['', 'line\nbreak', 'tab\tquote"back\\slash', '\u2028\u2029', 'é 🙂', '\ud800', '</script>'],
		date: new Date(0), keyed, keyed_in_array: [keyed, keyed], boxed: [Object(1), Object('s'), Object(false)],
		point: new Point(1, 2), bare, deep: {a: {b: {c: [{d: [[], {}, [1, [2, {e: 'f'}]]]}]}}},
		nested_toJSON: {inner: {toJSON: () => ({x: [1, {y: undefined}], z: keyed})}},
	};
	return {...everything, list: [everything, [everything, [everything]]]};
}

function piecesText(value: unknown): string {
	return [...jsonPieces(value)].join('');
}

t.test('the pieces join to the text writeJson writes, whatever JSON.stringify treats in its own way', async t => {
	const value = awkward();
	t.equal(piecesText(value), jsonText(value));
	for (const top of [null, 0, 'text', true, [], {}, [1, [2]], undefined, new Date(0), {toJSON: () => undefined}, [[[]]], {a: {}}]) t.equal(piecesText(top), jsonText(top), `top: ${String(jsonText(top)).slice(0, 40)}`);
});

t.test('what JSON.stringify refuses, the pieces refuse too', async t => {
	const cycle: Record<string, unknown> = {a: 1};
	cycle.self = {again: cycle};
	t.throws(() => piecesText(cycle), TypeError);
	t.throws(() => piecesText({list: [{n: 1n}]}), TypeError);
});

/** A report's shape: a handful of fields, then thousands of entries of a couple of kilobytes each. */
function largeReport(entries: number): Record<string, unknown> {
	const tasks = Array.from({length: entries}, (_, index) => ({
		index, task_id: `task-${index}`, evidence: {result: `tasks/${String(index + 1).padStart(5, '0')}-task/result.json`}, status: index % 7 === 0 ? 'failed' : 'passed',
		reason: index % 7 === 0 ? 'grader' : null, grade: {passed: index % 7 !== 0, score: index / entries, details: `the ${index}th: "quoted"\nand on`},
		outcome: {steps: index % 5, usage: {turns: 1, total_tokens: null}, final_text: 'x'.repeat(index % 300), infrastructure: null}, optional: index % 2 === 0 ? undefined : 'odd',
	}));
	return {schema: 'harness-lab/report@1', task_ids: tasks.map(task => task.task_id), tasks, totals: {tasks: entries}, leak_audit: null, problems: []};
}

t.test('a large report is written with the same bytes as writeJson, in pieces', async t => {
	const dir = await tempDir(t);
	const report = largeReport(10_000);
	const path = join(dir, 'report.json');
	await writeJsonInPieces(path, report, {exclusive: true, durable: true});
	const written = await readFile(path);
	t.ok(written.equals(Buffer.from(jsonText(report))), `${written.length} bytes, equal to writeJson's`);
	t.same(await readdir(dir), ['report.json'], 'no temporary file is left behind');
});

t.test('exclusive: an existing file is refused and stays as it was, with no temporary file left', async t => {
	const dir = await tempDir(t);
	const path = join(dir, 'report.json');
	await writeFile(path, 'first\n');
	await t.rejects(writeJsonInPieces(path, largeReport(100), {exclusive: true, durable: true}), {code: 'EEXIST'});
	t.equal(await readFile(path, 'utf8'), 'first\n');
	t.same(await readdir(dir), ['report.json']);
});

t.test('atomic: while the pieces are written a reader sees no file or the whole one, never a part', async t => {
	const dir = await tempDir(t);
	const path = join(dir, 'report.json');
	const report = largeReport(10_000);
	const whole = jsonText(report);
	const seen = {temp: 0, partial: 0, whole: 0};
	let writing = true;
	// Between two writes the event loop turns: look each turn.
	const look = (): void => {
		if (readdirSync(dir).some(name => name.startsWith('.report.json.') && name.endsWith('.tmp'))) seen.temp++;
		if (existsSync(path)) seen[readFileSync(path, 'utf8') === whole ? 'whole' : 'partial']++;
		if (writing) setImmediate(look);
	};
	setImmediate(look);
	await writeJsonInPieces(path, report, {exclusive: true, durable: true});
	writing = false;
	t.ok(seen.temp > 0, `the temporary file was seen ${seen.temp} times while it was written`);
	t.equal(seen.partial, 0, 'report.json was never seen in part');
});

t.test('pieces whose maker throws part way: the write fails, with neither the file nor its temporary one left', async t => {
	const dir = await tempDir(t);
	const report = largeReport(10_000);
	(report.tasks as unknown[])[9000] = {toJSON: () => { throw new Error('entry 9000 cannot be written'); }};
	await t.rejects(writeJsonInPieces(join(dir, 'report.json'), report, {exclusive: true, durable: true}), {message: 'entry 9000 cannot be written'});
	t.same(await readdir(dir), [], 'nothing is left in the folder');
});
