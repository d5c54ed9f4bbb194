import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {runInGroup} from '../../process/index.js';
import {findMarked} from '../../process/kill-marked.js';
import {checkNoLeaks} from '../leak-check.js';
import {hlab} from '../hlab.js';
import {freeze, scratch} from './experiment-fixture.js';
import {evalEntry} from './install-copy.js';

checkNoLeaks(t);

/** A step policy that never answers: the task stays in the middle of its execution until the supervisor dies. */
const stalling = `export default {
	initialize() {
		return {protocol_version: 1, id: 'stall', capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}]};
	},
	async invokeCapability() {
		await new Promise(resolve => setTimeout(resolve, 120_000));
		return {output: {stop: false}};
	},
};
`;

async function readJson(path: string): Promise<any> {
	return JSON.parse(await readFile(path, 'utf8'));
}

async function waitFor(what: () => boolean, ms: number): Promise<boolean> {
	for (let waited = 0; !what() && waited < ms; waited += 50) await sleep(50);
	return what();
}

// XDG_RUNTIME_DIR names a file, so the search moves on to the shared-memory tmpfs whatever the machine sets.
const shmOnly = (dir: string): Record<string, string> => ({XDG_RUNTIME_DIR: join(dir, 'plan.json')});

t.test('an attempt killed mid-task keeps its runtime state on the tmpfs until --recover exports it into the task folder', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'sales_report', policy: {concurrency: 1}});
	const candidate = join(dir, 'stall.ts');
	await writeFile(candidate, stalling);
	const artifacts = join(dir, 'attempt');
	let pid = 0;
	const running = runInGroup({
		argv: [process.execPath, evalEntry(), 'eval', '--plan', plan, '--artifacts', artifacts, '--candidate', candidate, '--json'],
		env: shmOnly(dir), deadlineMs: 120_000, sweep: false, onSpawn: spawned => { pid = spawned; },
	});
	const locations = join(artifacts, 'tasks', '001-sales_report', 'runtime-locations.json');
	t.ok(await waitFor(() => existsSync(locations), 60_000), 'the task started');
	const root = await readJson(join(artifacts, 'runtime-root.json'));
	t.equal(root.source, '/dev/shm');
	t.equal(root.tmpfs, true, 'the runtime state is on a tmpfs');
	const where = await readJson(locations);
	t.equal(where.workspace, join(root.dir, '001-sales_report', 'workspace'), 'the task\'s workspace is under the runtime root');
	t.ok(await waitFor(() => existsSync(join(where.workspace, 'data', 'sales.csv')), 30_000), 'the task set up its workspace on the tmpfs');
	t.notOk(existsSync(join(artifacts, 'tasks', '001-sales_report', 'runtime-state')), 'only evidence is in the evidence directory');
	const attempt = await readJson(join(artifacts, 'attempt.json'));
	const data = await readFile(join(where.workspace, 'data', 'sales.csv'), 'utf8');
	process.kill(pid, 'SIGKILL');
	t.equal((await running).record.signal, 'SIGKILL');
	t.ok(existsSync(join(where.session, 'configuration.json')), 'the runtime state outlives its supervisor');

	const recover = await hlab(['eval', '--recover', artifacts, '--json']);
	t.equal(recover.record.exit_code, 1, recover.stderr);
	const report = await readJson(join(artifacts, 'report.json'));
	t.equal(report.tasks[0].reason, 'unfinished');
	t.match(report.tasks[0].message, /kept in tasks\/001-sales_report\/runtime-state/);
	const kept = join(artifacts, 'tasks', '001-sales_report', 'runtime-state');
	t.equal(await readFile(join(kept, 'workspace', 'data', 'sales.csv'), 'utf8'), data, 'the workspace is in the task folder, as the task left it');
	t.ok(existsSync(join(kept, 'session', 'configuration.json')), 'the session is in the task folder');
	t.ok(existsSync(join(kept, 'state')), 'the state folder is in the task folder');
	t.notOk(existsSync(root.dir), 'nothing of the attempt is left on the tmpfs');
	t.same(findMarked(attempt.process_marker).map(stat => stat.pid), [], 'no process of the attempt survives recovery');
});

t.test('HLAB_RUNTIME_ROOT=evidence keeps the runtime state in the task folder; a finished attempt leaves nothing on the tmpfs', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt'});
	const inEvidence = await hlab(['eval', '--plan', plan, '--artifacts', join(dir, 'a'), '--json'], {env: {HLAB_RUNTIME_ROOT: 'evidence'}});
	t.equal(inEvidence.record.exit_code, 0, inEvidence.stderr);
	t.match(await readJson(join(dir, 'a', 'runtime-root.json')), {dir: null, source: 'evidence'});
	const where = await readJson(join(dir, 'a', 'tasks', '001-answer_from_prompt', 'runtime-locations.json'));
	t.equal(where.workspace, join(dir, 'a', 'tasks', '001-answer_from_prompt', 'runtime-state', 'workspace'));
	t.notOk(existsSync(join(dir, 'a', 'tasks', '001-answer_from_prompt', 'runtime-state')), 'removed once exported');

	const onShm = await hlab(['eval', '--plan', plan, '--artifacts', join(dir, 'b'), '--keep-workdirs', '--json'], {env: shmOnly(dir)});
	t.equal(onShm.record.exit_code, 0, onShm.stderr);
	const root = await readJson(join(dir, 'b', 'runtime-root.json'));
	t.match(root, {source: '/dev/shm', tmpfs: true});
	t.ok(existsSync(join(dir, 'b', 'tasks', '001-answer_from_prompt', 'workspace', 'README.md')), 'the kept workspace was exported from the tmpfs');
	t.ok(existsSync(join(dir, 'b', 'tasks', '001-answer_from_prompt', 'journal.jsonl')));
	t.notOk(existsSync(root.dir), 'the attempt\'s runtime root is gone');
});

t.test('an unusable HLAB_RUNTIME_ROOT is one line of bad input, before any evidence is written', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt'});
	const run = await hlab(['eval', '--plan', plan, '--artifacts', join(dir, 'a')], {env: {HLAB_RUNTIME_ROOT: join(dir, 'missing')}});
	t.equal(run.record.exit_code, 2);
	t.match(run.stderr, /^hlab: HLAB_RUNTIME_ROOT=.* cannot hold the runtime state: ENOENT/);
	t.equal(run.stderr.trim().split('\n').length, 1);
	t.notOk(existsSync(join(dir, 'a')), 'no evidence directory was started');
});
