import {chmod, mkdir, mkdtemp, readFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {resolveProvider} from '../../engine/index.js';
import {startScriptedServer} from '../../scripted/index.js';
import {getTask} from '../../tasks/index.js';
import {closeHostSession, openHostSession, runHostTask} from '../../supervisor/host/index.js';
import {HostResponse} from '../../workers/host-protocol.js';

checkNoLeaks(t);

const entry = join(import.meta.dirname, 'host-worker-entry.js');
const env = {PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`};

t.test('the real host worker runs a built-in task with its own engine and names itself; the supervisor grades', async t => {
	await chmod(entry, 0o755);
	const task = getTask('test_failure_fix');
	if (task === null) throw new Error('the built-in task test_failure_fix is missing');
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-worker-'));
	const workspace = join(root, 'workspace');
	await mkdir(workspace);
	await task.setup(workspace);
	const server = await startScriptedServer();
	t.teardown(() => server.close());
	const session = await openHostSession({artifacts: join(root, 'attempt'), exe: entry, planDigest: `sha256:${'d'.repeat(64)}`, taskIds: [task.id]});
	const run = await runHostTask(session, {
		index: 0, task: {id: task.id, prompt: task.prompt}, workspace, stateDir: join(root, 'state'),
		provider: resolveProvider({kind: 'scripted'}, server.url), maxSteps: 8, deadlineMs: 60_000, env,
	});
	t.equal(run.failure, null, run.failure?.message ?? 'no failure');
	t.equal(run.record.exit_code, 0);
	t.equal(run.outcome?.status, 'done');
	t.ok((run.outcome?.usage.turns ?? 0) > 0, 'the scripted provider was called through the worker');
	const response = HostResponse.parse(JSON.parse(await readFile(join(session.dir, 'tasks', `001-${task.id}`, 'stdout.log'), 'utf8')));
	t.equal(response.binary.digest, session.identity.digest);
	const grade = await task.grade(workspace, {deadlineMs: 60_000});
	t.equal(grade.passed, true, grade.details);
	const closed = await closeHostSession(session);
	t.same(closed.closed?.answered, [task.id]);
});

t.test('a request that is not protocol v1 is refused with status 2 and no answer', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-worker-'));
	const {runInGroup} = await import('../../process/index.js');
	const run = await runInGroup({argv: [entry, 'host-worker'], input: JSON.stringify({version: 2, kind: 'task'}), env, cwd: root, deadlineMs: 60_000});
	t.equal(run.record.exit_code, 2);
	t.equal(run.stdout?.toString(), '');
	t.match(run.stderr?.toString(), /not a host-worker v1 request/);
});
