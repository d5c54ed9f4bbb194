import {readdir, readFile, rm, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {createControllerClient, fileDigest, InputsManifest, pinIdentity, verifyIdentityFiles} from '../../../supervisor/controller/index.js';
import {ProcessRecord, runInGroup} from '../../../process/index.js';
import {checkNoLeaks} from '../../leak-check.js';
import {answering, fixtureDir, pinFixture, scratch} from './fixtures.js';

checkNoLeaks(t);

const validTasks = JSON.stringify({version: 1, result: {tasks: [{id: 'one', prompt: 'write one.txt'}]}});

t.test('pinIdentity pins every listed file and every absolute path of the command', async t => {
	const dir = await scratch(t);
	const data = join(dir, 'data.txt');
	await writeFile(data, 'abc');
	const script = join(fixtureDir, 'silent.mjs');
	const identity = await pinIdentity([process.execPath, script, '--flag'], [data]);
	t.same(Object.keys(identity.files).sort(), [process.execPath, script, data].sort());
	t.equal(identity.files[data], 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 'the digest is sha256 of the bytes');
	t.same(await verifyIdentityFiles(identity), [], 'nothing differs right after pinning');
});

t.test('pinIdentity refuses a relative executable and a file that does not exist', async t => {
	await t.rejects(pinIdentity(['node', join(fixtureDir, 'silent.mjs')], []), /absolute/);
	await t.rejects(pinIdentity([process.execPath], ['/nonexistent/controller.mjs']), {code: 'ENOENT'});
});

t.test('verifyIdentityFiles names each changed and each missing file', async t => {
	const dir = await scratch(t);
	const [kept, changed, removed] = ['kept', 'changed', 'removed'].map(name => join(dir, name)) as [string, string, string];
	for (const file of [kept, changed, removed]) await writeFile(file, file);
	const identity = await pinIdentity([process.execPath], [kept, changed, removed]);
	await writeFile(changed, 'other bytes');
	await rm(removed);
	const mismatches = await verifyIdentityFiles(identity);
	t.same(mismatches.map(({file, reason}) => ({file, reason})).sort((a, b) => a.file.localeCompare(b.file)), [
		{file: changed, reason: 'digest_mismatch'},
		{file: removed, reason: 'missing_file'},
	]);
	t.equal(mismatches.find(mismatch => mismatch.file === changed)?.actual, await fileDigest(changed));
});

t.test('a pinned file replaced by a FIFO is reported, not waited on', async t => {
	const dir = await scratch(t);
	const data = join(dir, 'data');
	await writeFile(data, 'bytes');
	const identity = await pinIdentity([process.execPath], [data]);
	await rm(data);
	t.equal((await runInGroup({argv: ['mkfifo', data], deadlineMs: 10_000})).record.exit_code, 0);
	t.match(await verifyIdentityFiles(identity), [{file: data, reason: 'missing_file', message: /not a regular file/}]);
	await t.rejects(pinIdentity([process.execPath], [data]), {code: 'ENOTREG'});
});

t.test('a controller that rewrites one of its pinned files during the call fails with digest_mismatch naming it', async t => {
	const dir = await scratch(t);
	const data = join(dir, 'grading-data.txt');
	await writeFile(data, 'answer key\n');
	const client = createControllerClient({identity: await pinFixture('rewrite-pinned.mjs', [data]), evidenceDir: dir});
	const answer = await client.call('tasks', {});
	t.same(answer.ok ? null : {reason: answer.error.reason, file: answer.error.file}, {reason: 'digest_mismatch', file: data});
	if (!answer.ok) t.match(answer.error.message, /after the call/);
	const call = join(dir, 'controller', 'calls', '001-tasks');
	t.notOk((await readdir(call)).includes('response.json'), 'the answer of a changed controller is not recorded as its response');
	t.same(JSON.parse(await readFile(join(call, 'error.json'), 'utf8')).reason, 'digest_mismatch');
});

t.test('a pinned file that changed before the call fails it without running anything', async t => {
	const dir = await scratch(t);
	const data = join(dir, 'answer.json');
	await writeFile(data, validTasks);
	const identity = await pinFixture('answer-file.mjs', [data]);
	await writeFile(data, validTasks.replace('one.txt', 'two.txt'));
	const client = createControllerClient({identity, evidenceDir: dir});
	const answer = await client.call('tasks', {});
	t.same(answer.ok ? null : {reason: answer.error.reason, file: answer.error.file}, {reason: 'digest_mismatch', file: data});
	if (!answer.ok) t.match(answer.error.message, /before the call/);
	t.same((await readdir(join(dir, 'controller', 'calls', '001-tasks'))).sort(), ['error.json', 'request.json'], 'no process was started');
});

t.test('a missing pinned file fails the call with missing_file naming it', async t => {
	const dir = await scratch(t);
	const data = join(dir, 'answer.json');
	await writeFile(data, validTasks);
	const identity = await pinFixture('answer-file.mjs', [data]);
	await rm(data);
	const client = createControllerClient({identity});
	const answer = await client.call('tasks', {});
	t.same(answer.ok ? null : {reason: answer.error.reason, file: answer.error.file}, {reason: 'missing_file', file: data});
	if (!answer.ok) t.match(answer.error.message, /does not exist/);
});

t.test('an identity that leaves a command path unpinned is refused outright', async t => {
	const script = join(fixtureDir, 'silent.mjs');
	t.throws(() => createControllerClient({identity: {command: [process.execPath, script], files: {}}}), /not pinned/);
});

t.test('the evidence holds the inputs once and every call with its request, response, stderr and process record', async t => {
	const dir = await scratch(t);
	const data = join(dir, 'answer.json');
	await writeFile(data, validTasks);
	const identity = await pinFixture('answer-file.mjs', [data]);
	const client = createControllerClient({identity, evidenceDir: dir});
	t.ok((await client.call('tasks', {})).ok);
	const manifestPath = join(dir, 'controller', 'inputs', 'manifest.json');
	const copiedAt = (await stat(manifestPath)).mtimeMs;
	const second = await client.call('schedule', {task_ids: ['one']});
	t.equal(second.ok ? 'ok' : second.error.reason, 'schema', 'the tasks answer is no schedule');

	const controllerDir = join(dir, 'controller');
	t.same(JSON.parse(await readFile(join(controllerDir, 'identity.json'), 'utf8')), identity);
	const manifest = InputsManifest.parse(JSON.parse(await readFile(manifestPath, 'utf8')));
	t.same(Object.keys(manifest.files).sort(), Object.keys(identity.files).sort(), 'every pinned file is copied');
	for (const [file, {copy, digest}] of Object.entries(manifest.files)) {
		t.equal(digest, identity.files[file]);
		t.equal(await fileDigest(join(controllerDir, 'inputs', copy)), digest, `the copy of ${file} has its bytes`);
	}
	t.equal((await stat(manifestPath)).mtimeMs, copiedAt, 'the inputs are copied once, not per call');

	t.same(await readdir(join(controllerDir, 'calls')), ['001-tasks', '002-schedule']);
	const first = join(controllerDir, 'calls', '001-tasks');
	t.same((await readdir(first)).sort(), ['process.json', 'request.json', 'response.json', 'stderr.txt']);
	t.same(JSON.parse(await readFile(join(first, 'request.json'), 'utf8')), {version: 1, method: 'tasks', params: {}});
	t.equal(await readFile(join(first, 'response.json'), 'utf8'), validTasks, 'the response is kept byte for byte');
	const record = ProcessRecord.parse(JSON.parse(await readFile(join(first, 'process.json'), 'utf8')));
	t.same(record.argv, identity.command);
	t.equal(record.exit_code, 0);
	const failed = join(controllerDir, 'calls', '002-schedule');
	t.same((await readdir(failed)).sort(), ['error.json', 'process.json', 'request.json', 'stderr.txt', 'stdout.txt']);
	t.equal(await readFile(join(failed, 'stdout.txt'), 'utf8'), validTasks, 'the rejected answer is kept as stdout');

	const again = createControllerClient({identity, evidenceDir: dir});
	t.ok((await again.call('tasks', {})).ok, 'a second client for the same attempt accepts the same inputs');
	t.same(await readdir(join(controllerDir, 'calls')), ['001-tasks', '002-schedule', '003-tasks'], 'and continues the numbering');
});

t.test('an evidence directory that recorded another controller refuses a different one', async t => {
	const dir = await scratch(t);
	t.ok((await createControllerClient({identity: await answering(dir, validTasks), evidenceDir: dir}).call('tasks', {})).ok);
	const other = createControllerClient({identity: await answering(dir, validTasks), evidenceDir: dir});
	const answer = await other.call('tasks', {});
	t.equal(answer.ok ? 'ok' : answer.error.reason, 'evidence');
});
