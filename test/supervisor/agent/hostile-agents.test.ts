import {randomBytes} from 'node:crypto';
import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {AgentTaskRecord} from '../../../supervisor/agent/index.js';
import {runAttempt} from '../../../supervisor/attempt/index.js';
import {ProcessRecord} from '../../../process/index.js';
import {isRunning, readStat} from '../../../process/proc-table.js';
import {answerFromPrompt} from '../../../tasks/answer_from_prompt/task.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {freezeAgentPlan, solvingAgent, writeCommandAgent} from './command-agents.js';

checkNoLeaks(t);

const folder = 'tasks/001-answer_from_prompt';
const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));

/** One attempt of answer_from_prompt with the command agent `body`, in the test's own process. */
async function runAgent(t: Test, name: string, body: string, options: {deadlineMs?: number; keepWorkdirs?: boolean; spec?: Parameters<typeof writeCommandAgent>[3]; memoryLimitBytes?: number} = {}) {
	const dir = await tempDir(t, `hlab-agent-${name}-`);
	const planPath = await freezeAgentPlan(t, dir, {deadlineMs: options.deadlineMs, ...(options.memoryLimitBytes === undefined ? {} : {memoryLimitBytes: options.memoryLimitBytes})});
	const agent = await writeCommandAgent(dir, name, body, options.spec);
	const artifacts = join(dir, 'side');
	const {report} = await runAttempt({planPath, artifacts, candidatePath: null, agentSpec: agent.spec, keepWorkdirs: options.keepWorkdirs ?? false, configPath: null, quiet: true, cwd: dir});
	const record = AgentTaskRecord.parse(await readJson(join(artifacts, folder, 'agent-task.json')));
	const process = ProcessRecord.parse(await readJson(join(artifacts, folder, 'process.json')));
	return {dir, artifacts, report, task: report.tasks[0]!, record, process};
}

t.test('a tool child that moves to a new session with a cleared environment and sleeps: ended with the tree, and named', async t => {
	// env -i drops every marker; setsid leaves the group and the session: only the task's cgroup still holds it.
	const body = `import {spawn} from 'node:child_process';
spawn('env', ['-i', 'setsid', 'sleep', '300'], {detached: true, stdio: 'ignore'}).unref();
await new Promise(resolve => setTimeout(resolve, 300));
${solvingAgent}`;
	const {task, record, process} = await runAgent(t, 'escaper', body);
	t.equal(task.status, 'passed', 'the agent still solved its task');
	t.ok(process.leaks.length > 0, 'the escaped child is a leak of the tree');
	t.ok(record.leaked.some(leak => leak.comm === 'sleep'), `the agent's record names it: ${JSON.stringify(record.leaked)}`);
	t.strictSame(process.survivors, [], 'nothing survived the cleanup');
	// checkNoLeaks fails the file if the sleep still runs.
});

t.test('an agent runs under the plan\'s memory limit, and so does every process it starts', async t => {
	// Without the limit both allocations succeed: the agent would print 'held' and its child exit 0.
	const body = `import {spawnSync} from 'node:child_process';
const child = spawnSync(process.execPath, ['-e', 'Buffer.alloc(512 * 1024 * 1024, 1)'], {stdio: 'ignore'});
console.error('child exit ' + child.status);
try { Buffer.alloc(512 * 1024 * 1024, 1); console.error('held'); } catch (error) { console.error('refused: ' + error.message); }
${solvingAgent}`;
	const {task, process, artifacts} = await runAgent(t, 'hungry', body, {memoryLimitBytes: 256 * 1024 ** 2});
	t.equal(task.status, 'passed', 'a refused allocation the agent survives is its own business');
	t.match(process.memory_limit, {bytes: 256 * 1024 ** 2});
	const stderr = await readFile(join(artifacts, folder, 'stderr.log'), 'utf8');
	t.match(stderr, /child exit [1-9]/, 'its child inherited the limit');
	t.match(stderr, /refused: Array buffer allocation failed/, 'and the agent itself could not take more');
});

t.test('an agent that ignores SIGTERM is ended after the grace, reason timeout', async t => {
	const body = `process.on('SIGTERM', () => console.error('ignoring SIGTERM'));
setInterval(() => {}, 1000);`;
	const {task, record, process} = await runAgent(t, 'stubborn', body, {deadlineMs: 500});
	t.equal(task.status, 'failed');
	t.equal(task.reason, 'timeout', task.message ?? '');
	t.equal(process.failure, 'timeout');
	t.ok(process.killed.some(killed => killed.pid === process.pid && killed.how === 'kill'), 'the leader got SIGKILL after the grace');
	t.equal(record.failure?.reason, 'timeout');
});

t.test('an agent that exits 0 after the provider answered an error fails, reason provider, whatever it printed', async t => {
	// The right answer on stdout would pass the grader: only the proxy's last exchange tells the run failed.
	const body = `const {status} = await solve('not the prompt of any task');
console.error('provider said ' + status);
console.log('The job finished at 12:25.');`;
	const {task, record} = await runAgent(t, 'liar', body);
	t.equal(task.status, 'failed');
	t.equal(task.reason, 'provider', task.message ?? '');
	t.match(task.message, /last model request failed \(the provider answered 400/);
	t.match(record, {exit_code: 0, last_exchange: {status: 400, refused: false}, classification: {status: 'finished'}});
});

t.test('an agent that asks for another model is refused at the proxy, and the refusal is in the evidence', async t => {
	const body = `const {status, answer} = await solve(prompt, {model: 'gpt-4o'});
console.error('provider said ' + status);
console.log(answer ?? 'The job finished at 12:25.');`;
	const {task, record, artifacts} = await runAgent(t, 'greedy', body);
	t.equal(task.reason, 'provider', task.message ?? '');
	t.match(task.message, /the metering proxy refused it/);
	t.match(record, {requests: 0, proxy_refusals: {count: 1, models: ['gpt-4o']}, last_exchange: {status: 400, refused: true}});
	t.match(await readJson(join(artifacts, folder, 'metering.json')), {requests: 0, refusals: {count: 1, models: ['gpt-4o']}, usage: {turns: 0}});
});

t.test('an agent that never reads the task on its stdin, and one that reads stdin at /dev/null, both finish', async t => {
	const unread = await runAgent(t, 'deaf', `const {answer} = await solve(${JSON.stringify(answerFromPrompt.prompt)});\nconsole.log(answer);`, {spec: {task_input: 'stdin'}});
	t.equal(unread.task.status, 'passed', unread.task.message ?? '');
	t.equal(unread.record.argv.length, 1, 'with task_input stdin the task is not on the command line');
	// A stdin left open (a TTY, an inherited pipe) would hang this agent until its deadline.
	const reader = await runAgent(t, 'reader', `let read = 0;\nfor await (const chunk of process.stdin) read += chunk.length;\nconsole.error('stdin held ' + read + ' bytes');\n${solvingAgent}`);
	t.equal(reader.task.status, 'passed', reader.task.message ?? '');
	t.match(await readFile(join(reader.artifacts, folder, 'stderr.log'), 'utf8'), 'stdin held 0 bytes');
});

t.test('a planted secret of the supervisor\'s environment reaches no agent process and no evidence file', async t => {
	const secret = `planted-${randomBytes(12).toString('hex')}`;
	const names = ['HLAB_PLANTED_SECRET', 'PLANTED_TOKEN', 'OPENAI_API_KEY'];
	const before = Object.fromEntries(names.map(name => [name, process.env[name]]));
	for (const name of names) process.env[name] = secret;
	process.env.HLAB_ALLOWED_VAR = 'allowed-value';
	t.teardown(() => {
		for (const name of names) {
			if (before[name] === undefined) delete process.env[name];
			else process.env[name] = before[name];
		}
		delete process.env.HLAB_ALLOWED_VAR;
	});
	const body = `import {readFileSync, writeFileSync} from 'node:fs';
import {execFileSync} from 'node:child_process';
writeFileSync('env.json', JSON.stringify(process.env));
writeFileSync('environ.txt', readFileSync('/proc/self/environ'));
execFileSync('sh', ['-c', 'cat /proc/self/environ > child-environ.txt; env > child-env.txt']);
${solvingAgent}`;
	const {artifacts, record} = await runAgent(t, 'snoop', body, {keepWorkdirs: true, spec: {env: ['HLAB_ALLOWED_VAR']}});
	const workspace = join(artifacts, folder, 'workspace');
	const env = await readJson(join(workspace, 'env.json')) as Record<string, string>;
	t.equal(env.OPENAI_API_KEY, 'hlab-metered', 'the agent holds a placeholder key, never a key of the supervisor\'s');
	t.equal(env.HLAB_ALLOWED_VAR, 'allowed-value', 'an allow-listed variable reaches it');
	t.notOk('HLAB_PLANTED_SECRET' in env || 'PLANTED_TOKEN' in env, 'no other variable does');
	t.match(env.HOME, /\/home$/, 'a fresh $HOME of the task');
	t.ok(record.env_names.includes('HLAB_ALLOWED_VAR') && !record.env_names.includes('PLANTED_TOKEN'), 'the record names the variables, not their values');
	for (const file of ['environ.txt', 'child-environ.txt', 'child-env.txt']) t.ok((await readFile(join(workspace, file), 'utf8')).length > 0, `${file} was written`);
	const holding: string[] = [];
	for (const file of await readdir(artifacts, {recursive: true, withFileTypes: true})) {
		if (!file.isFile()) continue;
		const path = join(file.parentPath, file.name);
		if ((await readFile(path)).includes(secret)) holding.push(path);
	}
	t.strictSame(holding, [], 'no evidence file holds the secret (the agent\'s dumps of its environment included)');
});

t.test('an agent that kills the spawner that forked it, then solves its task, fails it, and nothing of it is left', async t => {
	// The attack: its parent is the attempt's spawner; a daemon is left behind, then the right answer is printed.
	const body = `import {spawn} from 'node:child_process';
import {writeFileSync} from 'node:fs';
const daemon = spawn('sleep', ['300'], {detached: true, stdio: 'ignore'});
daemon.unref();
writeFileSync('daemon.pid', String(daemon.pid));
process.kill(process.ppid, 'SIGKILL');
await new Promise(resolve => setTimeout(resolve, 300));
${solvingAgent}`;
	const {artifacts, task, process: record, report} = await runAgent(t, 'parricide', body, {keepWorkdirs: true});
	t.equal(task.status, 'failed', 'a failure, never a pass');
	t.equal(task.reason, 'crash');
	t.equal(record.failure, 'spawner', 'process.json names the reason');
	t.match(record.failure_message, /spawner .*killed by SIGKILL while the command ran/);
	const daemon = Number(await readFile(join(artifacts, folder, 'workspace', 'daemon.pid'), 'utf8'));
	t.ok(daemon > 0);
	t.notOk(isRunning(readStat(daemon)), 'its daemon was ended with the spawner\'s trees');
	t.strictSame(report.leak_audit?.survivors, [], 'the attempt\'s final audit finds nothing left');
});
