import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../../leak-check.js';
import {closeHostSession, openHostSession, runHostTask, type HostSession} from '../../../supervisor/host/index.js';
import {ProcessRecord, startSpawner} from '../../../process/index.js';
import {isRunning, readStat} from '../../../process/proc-table.js';
import {truthful, writeSyntheticHost} from './synthetic-host.js';

checkNoLeaks(t);

// As in an attempt, the workers are forked by a spawner (a few tests below launch from here: both paths are covered).
const spawner = await startSpawner();
t.teardown(() => spawner.close());

const planDigest = `sha256:${'a'.repeat(64)}`;
const provider = {base_url: 'http://127.0.0.1:9/v1', model: 'm', api_key_env: null, reasoning_effort: null};

async function runAll(session: HostSession, root: string, ids: string[], deadlineMs = 20_000) {
	const runs = [];
	for (const [index, id] of ids.entries()) {
		const workspace = join(root, 'work', id);
		await mkdir(workspace, {recursive: true});
		runs.push(await runHostTask(session, {index, task: {id, prompt: `do ${id}`}, workspace, stateDir: join(root, 'state', id), provider, maxSteps: 4, deadlineMs, graceMs: 300, launch: spawner.run}));
	}
	return runs;
}

t.test('a host that crashes on its third task leaves records for the first two and a failed third with its exit status', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-'));
	const exe = await writeSyntheticHost(root, 'crashing-host', `
		if (request.task.id === 'c') { process.stderr.write('engine exploded\\n'); process.exit(3); }
		${truthful}`);
	const ids = ['a', 'b', 'c'];
	const session = await openHostSession({artifacts: join(root, 'host-attempt'), exe, planDigest, taskIds: ids});
	t.equal(session.dir, join(root, 'host-attempt.host'));
	const runs = await runAll(session, root, ids);
	t.same(runs.map(run => run.failure?.reason ?? null), [null, null, 'crash']);
	t.equal(runs[0]!.outcome?.status, 'done');
	t.equal(runs[2]!.outcome, null);
	t.equal(runs[2]!.record.exit_code, 3);
	t.match(runs[2]!.failure?.message, /exited with status 3/);
	for (const [index, id] of ids.entries()) {
		const dir = join(session.dir, 'tasks', `00${index + 1}-${id}`);
		for (const file of ['checkpoint.json', 'request.json', 'stdout.log', 'stderr.log', 'process.json', 'host-task.json']) t.ok(existsSync(join(dir, file)), `${id}: ${file} kept`);
	}
	const third = join(session.dir, 'tasks', '003-c');
	t.equal(ProcessRecord.parse(JSON.parse(await readFile(join(third, 'process.json'), 'utf8'))).exit_code, 3);
	t.equal(await readFile(join(third, 'stderr.log'), 'utf8'), 'engine exploded\n');
	const checkpoint = JSON.parse(await readFile(join(third, 'checkpoint.json'), 'utf8'));
	t.equal(checkpoint.state_entries, 0, 'the task started from an empty state folder');
	const closed = await closeHostSession(session);
	t.same(closed.closed?.answered, ['a', 'b']);
	t.same(closed.closed?.unanswered, ['c']);
	t.equal(closed.closed?.binary_unchanged, true);
	t.type(closed.closed?.supervisor_unchanged, 'boolean', 'the supervisor build was measured again');
});

t.test('a host that lies about the binary it ran fails the task', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-'));
	const exe = await writeSyntheticHost(root, 'lying-host', `
		return {version: 1, binary: {path: '/usr/local/bin/hlab-blessed', digest: request.expected_binary_digest}, task_id: request.task.id, outcome: done};`);
	const session = await openHostSession({artifacts: join(root, 'attempt'), exe, planDigest, taskIds: ['a']});
	const [run] = await runAll(session, root, ['a']);
	t.equal(run!.failure?.reason, 'host');
	t.match(run!.failure?.message, /reports binary \/usr\/local\/bin\/hlab-blessed/);
	t.equal(run!.outcome, null, 'an answer from another binary is not this task\'s outcome');
	const echoed = await writeSyntheticHost(root, 'digest-liar', `
		return {version: 1, binary: {path: self.path, digest: 'sha256:' + 'b'.repeat(64)}, task_id: request.task.id, outcome: done};`);
	const second = await openHostSession({artifacts: join(root, 'attempt2'), exe: echoed, planDigest, taskIds: ['a']});
	const [other] = await runAll(second, root, ['a']);
	t.equal(other!.failure?.reason, 'host');
});

t.test('a host that answers for another task does not cover this one', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-'));
	const exe = await writeSyntheticHost(root, 'skipping-host', `
		return {version: 1, binary: self, task_id: 'something-else', outcome: done};`);
	const session = await openHostSession({artifacts: join(root, 'attempt'), exe, planDigest, taskIds: ['a']});
	const [run] = await runAll(session, root, ['a']);
	t.equal(run!.failure?.reason, 'host');
	t.match(run!.failure?.message, /answered for task something-else/);
});

t.test('a host that sleeps past its deadline is killed with its whole tree', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-'));
	const exe = await writeSyntheticHost(root, 'sleepy-host', `
		spawn('sleep', ['300'], {stdio: 'ignore'});
		spawn('sh', ['-c', 'sleep 300'], {stdio: 'ignore', detached: true});
		process.stderr.write('children started\\n');
		await new Promise(resolve => setTimeout(resolve, 300_000));`);
	const session = await openHostSession({artifacts: join(root, 'attempt'), exe, planDigest, taskIds: ['a']});
	const [run] = await runAll(session, root, ['a'], 3000);
	t.match(await readFile(join(session.dir, 'tasks', '001-a', 'stderr.log'), 'utf8'), /children started/);
	t.equal(run!.failure?.reason, 'timeout');
	t.equal(run!.record.timed_out, true);
	t.ok(run!.record.killed.length >= 3, `the leader and its children were killed (${run!.record.killed.map(entry => `${entry.comm}:${entry.how}`).join(' ')})`);
	t.ok(run!.record.killed.some(entry => !entry.in_group), 'the child that left the group was swept too');
	t.same(run!.record.survivors, []);
	t.ok(run!.record.wall_ms < 10_000);
});

t.test('output beyond the limit ends the worker as an output_limit failure', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-'));
	const exe = await writeSyntheticHost(root, 'chatty-host', `
		process.stdout.write('x'.repeat(100_000));
		await new Promise(resolve => setTimeout(resolve, 60_000));`);
	const session = await openHostSession({artifacts: join(root, 'attempt'), exe, planDigest, taskIds: ['a']});
	const workspace = join(root, 'w');
	await mkdir(workspace);
	const run = await runHostTask(session, {index: 0, task: {id: 'a', prompt: 'p'}, workspace, stateDir: join(root, 's'), provider, maxSteps: 1, deadlineMs: 20_000, stdoutLimit: 1000});
	t.equal(run.failure?.reason, 'output_limit');
});

t.test('a second attempt into the same host folder is refused', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-'));
	const exe = await writeSyntheticHost(root, 'host', truthful);
	await openHostSession({artifacts: join(root, 'attempt'), exe, planDigest, taskIds: ['a']});
	const second = await openHostSession({artifacts: join(root, 'attempt'), exe, planDigest, taskIds: ['a']}).then(() => null, (error: {reason?: string}) => error);
	t.equal(second?.reason, 'host_dir_exists');
});

t.test('a host worker runs under the task\'s memory limit: past it its allocation fails and the task is a crash; under it, it answers', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-'));
	const exe = await writeSyntheticHost(root, 'hungry-host', `
		if (request.task.id === 'hungry') Buffer.alloc(512 * 1024 * 1024, 1);
		${truthful}`);
	const session = await openHostSession({artifacts: join(root, 'attempt'), exe, planDigest, taskIds: ['hungry', 'modest']});
	const runs = [];
	for (const [index, id] of ['hungry', 'modest'].entries()) {
		const workspace = join(root, 'work', id);
		await mkdir(workspace, {recursive: true});
		runs.push(await runHostTask(session, {index, task: {id, prompt: `do ${id}`}, workspace, stateDir: join(root, 'state', id), provider, maxSteps: 4, deadlineMs: 20_000, graceMs: 300, memoryLimitBytes: 256 * 1024 ** 2, launch: spawner.run}));
	}
	// Without the limit the host holds half a gigabyte and answers (the same worker as 'modest').
	t.same(runs.map(run => run.failure?.reason ?? null), ['crash', null]);
	t.match(await readFile(join(session.dir, 'tasks', '001-hungry', 'stderr.log'), 'utf8'), /allocation failed/i, 'its own error says why');
	t.match(runs[0]!.record.memory_limit, {bytes: 256 * 1024 ** 2});
	t.match(runs[1]!.record.memory_limit, {bytes: 256 * 1024 ** 2}, 'the bound is recorded for every run');
	await closeHostSession(session);
});

t.test('a host that kills the spawner that forked it, then answers truthfully, fails its task and leaves nothing running', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-'));
	// The attack: its parent is the spawner; a daemon of its own is left behind, then a good answer and exit 0.
	const exe = await writeSyntheticHost(root, 'parricide-host', `
		const daemon = spawn('sleep', ['300'], {detached: true, stdio: 'ignore'});
		daemon.unref();
		writeFileSync(join(request.workspace, 'daemon.pid'), String(daemon.pid));
		process.kill(process.ppid, 'SIGKILL');
		await new Promise(resolve => setTimeout(resolve, 300));
		${truthful}`);
	const ids = ['kill', 'after'];
	const session = await openHostSession({artifacts: join(root, 'attempt'), exe, planDigest, taskIds: ids});
	const own = await startSpawner();
	t.teardown(() => own.close());
	const workspace = join(root, 'work', 'kill');
	await mkdir(workspace, {recursive: true});
	const run = await runHostTask(session, {index: 0, task: {id: 'kill', prompt: 'do kill'}, workspace, stateDir: join(root, 'state', 'kill'), provider, maxSteps: 4, deadlineMs: 20_000, graceMs: 300, launch: own.run});
	t.equal(run.record.failure, 'spawner', 'the process record names the reason');
	t.equal(run.failure?.reason, 'crash', 'a failure, never a pass');
	t.match(run.failure?.message, /spawner .* was killed by SIGKILL while the command ran/);
	t.equal(run.outcome, null, 'its answer is not taken');
	const daemon = Number(await readFile(join(workspace, 'daemon.pid'), 'utf8'));
	t.ok(daemon > 0);
	t.notOk(isRunning(readStat(daemon)), 'its daemon was ended with the spawner\'s trees');
	const next = join(root, 'work', 'after');
	await mkdir(next, {recursive: true});
	const after = await runHostTask(session, {index: 1, task: {id: 'after', prompt: 'do after'}, workspace: next, stateDir: join(root, 'state', 'after'), provider, maxSteps: 4, deadlineMs: 20_000, graceMs: 300, launch: own.run});
	t.equal(after.failure?.reason, 'crash', 'the same host kills the next spawner too: that task fails as well');
	await closeHostSession(session);
});
