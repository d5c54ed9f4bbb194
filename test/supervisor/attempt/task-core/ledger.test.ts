import {randomBytes} from 'node:crypto';
import {appendFile, mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {digestBytes} from '../../../../files/digest.js';
import {Ledger, readLedger} from '../../../../supervisor/attempt/task-core/ledger.js';
import {changedFiles} from '../../../../supervisor/evidence/seal/index.js';
import type {TaskResult} from '../../../../supervisor/attempt/report/report-schema.js';

function result(index: number, id: string): TaskResult {
	return {index, task_id: id, status: 'failed', reason: 'unfinished', message: 'x', grade: null, outcome: null, usage: null, wall_ms: null, evidence: {}};
}

t.test('records are appended one per line in call order, each a complete record', async t => {
	const dir = await mkdtemp(join(tmpdir(), 'hlab-ledger-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	const ledger = new Ledger(join(dir, 'ledger.jsonl'), 'attempt-1', randomBytes(32));
	await Promise.all([ledger.append(result(2, 'c')), ledger.append(result(0, 'a')), ledger.append(result(1, 'b'))]);
	const lines = (await readFile(join(dir, 'ledger.jsonl'), 'utf8')).trim().split('\n');
	t.equal(lines.length, 3);
	const read = await readLedger(join(dir, 'ledger.jsonl'));
	t.same(read.records.map(record => record.result.task_id), ['c', 'a', 'b']);
	t.ok(read.records.every(record => record.schema === 'harness-lab/ledger-record@1' && record.attempt_id === 'attempt-1'));
});

t.test('a failed flush fails its own records only; the records after it still reach the file', async t => {
	const dir = await mkdtemp(join(tmpdir(), 'hlab-ledger-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	// The ledger's folder does not exist yet, so the first flush cannot open the file.
	const path = join(dir, 'later', 'ledger.jsonl');
	const ledger = new Ledger(path, 'attempt-1', randomBytes(32));
	const first = ledger.append(result(0, 'a'));
	await t.rejects(first, {code: 'ENOENT'});
	await mkdir(join(dir, 'later'));
	await Promise.all(Array.from({length: 20}, (_, index) => ledger.append(result(index + 1, `t${index + 1}`))));
	const read = await readLedger(path);
	t.same(read.records.map(record => record.result.task_id), Array.from({length: 20}, (_, index) => `t${index + 1}`), 'every later record, in call order');
	t.same(read.unreadable, []);
});

t.test('a torn last line after a crash keeps every earlier record', async t => {
	const dir = await mkdtemp(join(tmpdir(), 'hlab-ledger-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	const path = join(dir, 'ledger.jsonl');
	await new Ledger(path, 'a', randomBytes(32)).append(result(0, 'a'));
	await appendFile(path, '{"schema":"harness-lab/ledger-rec');
	const read = await readLedger(path);
	t.equal(read.records.length, 1);
	t.same(read.unreadable, [2]);
	t.same((await readLedger(join(dir, 'missing.jsonl'))).records, []);
});

t.test('a file the export wrote is sealed by the bytes it wrote, not read back: changed in between, the seal shows it', async t => {
	const dir = await mkdtemp(join(tmpdir(), 'hlab-ledger-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	await mkdir(join(dir, 'tasks'));
	const written = 'the result as the supervisor wrote it\n';
	await writeFile(join(dir, 'tasks', 'result.json'), written);
	await writeFile(join(dir, 'tasks', 'journal.jsonl'), 'a journal\n');
	// Something rewrites the file between the export's write and the append (the window a read-back would seal).
	await writeFile(join(dir, 'tasks', 'result.json'), 'forged\n');
	const ledger = new Ledger(join(dir, 'ledger.jsonl'), 'attempt-1', randomBytes(32));
	const cited = {...result(0, 'a'), evidence: {result: 'tasks/result.json', journal: 'tasks/journal.jsonl'}};
	await ledger.append(cited, new Map([['tasks/result.json', digestBytes(written)]]));
	const [record] = (await readLedger(join(dir, 'ledger.jsonl'))).records;
	t.same(record?.seal?.files, {'tasks/journal.jsonl': digestBytes('a journal\n'), 'tasks/result.json': digestBytes(written)}, 'the written bytes for result.json; the journal, not written by this export, read and hashed');
	t.same(changedFiles(dir, record!.seal!.files), ['tasks/result.json changed since it was sealed']);
});
