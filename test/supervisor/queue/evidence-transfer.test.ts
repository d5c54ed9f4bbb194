import {existsSync} from 'node:fs';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {failedResult} from '../../../supervisor/attempt/task-core/failed-result.js';
import {collectEvidence, writeEvidence} from '../../../supervisor/queue/evidence-transfer.js';
import {tempDir} from '../../temp-dir.js';

t.test('a task folder travels whole (result.json apart) and is written back byte for byte, result.json last', async t => {
	const dir = await tempDir(t);
	const from = join(dir, 'worker', 'tasks', '001-x');
	await mkdir(join(from, 'workspace', 'src'), {recursive: true});
	await writeFile(join(from, 'journal.jsonl'), '{"a":1}\n');
	await writeFile(join(from, 'workspace', 'src', 'bin.dat'), Buffer.from([0, 255, 10, 13]));
	await writeFile(join(from, 'result.json'), '{}');
	const collected = await collectEvidence(from, 1024);
	if (!('files' in collected)) throw new Error('under the bound');
	t.same(collected.files.map(file => file.path), ['journal.jsonl', 'workspace/src/bin.dat']);
	const to = join(dir, 'coordinator', 'tasks', '001-x');
	const result = failedResult(0, 'x', {reason: 'crash', message: 'm'});
	await writeEvidence(to, collected.files, result);
	t.same(await readFile(join(to, 'workspace', 'src', 'bin.dat')), Buffer.from([0, 255, 10, 13]));
	t.equal(await readFile(join(to, 'journal.jsonl'), 'utf8'), '{"a":1}\n');
	t.same(JSON.parse(await readFile(join(to, 'result.json'), 'utf8')), result);
});

t.test('evidence over the bound is reported with its size, never cut short', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'messages.jsonl'), 'x'.repeat(2000));
	t.same(await collectEvidence(dir, 1999), {tooLarge: 2000});
	t.equal((await collectEvidence(dir, 2000) as {files: unknown[]}).files.length, 1, 'at the bound it travels');
});

t.test('a path that would leave the task folder is refused before anything is written', async t => {
	const dir = await tempDir(t);
	const result = failedResult(0, 'x', {reason: 'crash', message: 'm'});
	for (const path of ['../escape.txt', '/etc/escape', 'result.json']) {
		await t.rejects(writeEvidence(join(dir, 'task'), [{path, base64: 'eA=='}], result), {message: /outside its task folder/}, path);
	}
	t.notOk(existsSync(join(dir, 'escape.txt')));
	t.notOk(existsSync(join(dir, 'task', 'result.json')), 'no result.json for a refused answer');
});
