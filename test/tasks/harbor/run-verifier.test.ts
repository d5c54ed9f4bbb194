import {existsSync} from 'node:fs';
import {mkdir, readFile, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {readHarborTask, runVerifier, seedHarborWorkspace, type HarborTask} from '../../../tasks/harbor/index.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {writeHarborTask, writeThreeTasks} from './harbor-fixture.js';

checkNoLeaks(t);

const root = await tempDir(t, 'hlab-harbor-verifier-');
const three = await writeThreeTasks(join(root, 'tasks'));
let runs = 0;

function taskOf(dir: string): HarborTask {
	const read = readHarborTask(dir, {agentDeadlineMs: null, memoryBytes: null});
	if (!read.ok) throw new Error(read.problems.join('; '));
	return read.task;
}

/** A fresh workspace seeded from the task, changed by `work`, then the verifier's run over it. */
async function verify(task: HarborTask, work: (workspace: string) => Promise<void> = async () => {}) {
	runs += 1;
	const workspace = join(root, `run-${runs}`, 'workspace');
	seedHarborWorkspace(task, workspace);
	await work(workspace);
	const logsDir = join(root, `run-${runs}`, 'verifier');
	return {logsDir, run: await runVerifier({task, workspace, logsDir, hidden: [], signal: new AbortController().signal})};
}

t.test('a solved workspace earns reward 1: the verifier saw /app, /tests and wrote /logs/verifier', async t => {
	const {logsDir, run} = await verify(taskOf(three.solvable), workspace => writeFile(join(workspace, 'out.txt'), 'done seed-42'));
	t.same('grade' in run && run.grade, {passed: true, score: 1, details: 'reward 1'});
	t.ok(existsSync(join(logsDir, 'ctrf.json')), 'the CTRF report it wrote is kept');
	t.equal(await readFile(`${logsDir}-stdout.txt`, 'utf8'), '', 'its output is kept beside the folder');
});

t.test('an unsolved workspace earns reward 0, recorded', async t => {
	const {run} = await verify(taskOf(three.solvable));
	t.same('grade' in run && run.grade, {passed: false, score: 0, details: 'reward 0 (1 passes)'});
	const zero = await verify(taskOf(three.zeroReward));
	t.equal('reward' in zero.run && zero.run.reward, 0);
});

t.test('a verifier that crashes, hangs, or links its reward elsewhere gives no reward', async t => {
	const crash = taskOf(await writeHarborTask(join(root, 'tasks'), 'crashes', {instruction: 'x', toml: '', dockerfile: 'FROM debian:bookworm\nWORKDIR /app\n', testSh: 'exit 3\n'}));
	const crashed = await verify(crash);
	t.match('problem' in crashed.run && crashed.run.problem, /wrote no \/logs\/verifier\/reward.txt \(exit code 3\)/);
	const hang = taskOf(await writeHarborTask(join(root, 'tasks'), 'hangs', {instruction: 'x', toml: '[verifier]\ntimeout_sec = 1\n', dockerfile: 'FROM debian:bookworm\nWORKDIR /app\n', testSh: 'sleep 30 & sleep 30\n'}));
	const hung = await verify(hang);
	t.match('problem' in hung.run && hung.run.problem, /timed out after 1000 ms/);
	const linked = taskOf(await writeHarborTask(join(root, 'tasks'), 'links', {instruction: 'x', toml: '', dockerfile: 'FROM debian:bookworm\nWORKDIR /app\n', testSh: 'echo 1 > /app/one; ln -s /app/one /logs/verifier/reward.txt\n'}));
	const link = await verify(linked);
	t.match('problem' in link.run && link.run.problem, /is not a regular file/);
});

t.test('the evidence folder is made fresh: one that exists (a planted reward) is never reused', async t => {
	const task = taskOf(three.zeroReward);
	const logsDir = join(root, 'planted', 'verifier');
	await mkdir(logsDir, {recursive: true});
	await writeFile(join(logsDir, 'reward.txt'), '1');
	const workspace = join(root, 'planted', 'workspace');
	seedHarborWorkspace(task, workspace);
	await t.rejects(runVerifier({task, workspace, logsDir, hidden: [], signal: new AbortController().signal}), {code: 'EEXIST'});
});

t.test('a tests/ planted in the workspace is not the verifier: /tests is the task\'s own', async t => {
	const {run} = await verify(taskOf(three.zeroReward), async workspace => {
		await mkdir(join(workspace, 'tests'));
		await writeFile(join(workspace, 'tests', 'test.sh'), 'mkdir -p /logs/verifier; echo 1 > /logs/verifier/reward.txt\n');
		await symlink(join(workspace, 'tests', 'test.sh'), join(workspace, 'test.sh'));
	});
	t.equal('reward' in run && run.reward, 0);
});

t.test('the verifier gets [verifier] env and nothing of the supervisor\'s environment, a provider key least of all', async t => {
	process.env.HLAB_TEST_PROVIDER_KEY = 'sk-supervisor-only';
	t.teardown(() => delete process.env.HLAB_TEST_PROVIDER_KEY);
	const task = taskOf(await writeHarborTask(join(root, 'tasks'), 'env_probe', {
		instruction: 'x', toml: '[verifier]\nenv = { GREETING = "from-task-toml" }\n', dockerfile: 'FROM debian:bookworm\nWORKDIR /app\n',
		testSh: 'env > /logs/verifier/env.txt; echo 1 > /logs/verifier/reward.txt\n',
	}));
	const {logsDir, run} = await verify(task);
	t.equal('reward' in run && run.reward, 1);
	const env = await readFile(join(logsDir, 'env.txt'), 'utf8');
	t.match(env, /^GREETING=from-task-toml$/m);
	t.notMatch(env, /sk-supervisor-only|HLAB_SANDBOX|HLAB_TEST_PROVIDER_KEY/);
});
