import {existsSync} from 'node:fs';
import {readFile, rm} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {runInGroup} from '../../process/index.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {checkNoLeaks} from '../leak-check.js';
import {freePort, startRedis} from '../supervisor/queue/redis-server.js';
import {freeze, scratch} from './experiment-fixture.js';
import {evalEntry} from './install-copy.js';
import {answeringNodes, ledgerLines, queueEnv, startHlab, waitFor} from './queue-fixture.js';

checkNoLeaks(t);

const readReport = async (dir: string): Promise<Report> => Report.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));

t.test('a worker SIGKILLed mid-task: its task fails as worker_lost, is not retried, and the other tasks go on', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	// The slow task first, alone in its lane, so that the worker is killed while it runs.
	const plan = await freeze({dir, tasks: 'test_failure_fix,json_config_migration,answer_from_prompt', policy: {concurrency: 1}});
	const doomed = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'doomed']);
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--node-lock', '1500ms', '--json']);
	const client = redis.client();
	await waitFor('the first task to be taken', async () => {
		const active = await client.keys('bull:*:active');
		return active.length > 0 && await client.llen(active[0]!) > 0;
	});
	process.kill(doomed.pid, 'SIGKILL');
	await doomed.ended;
	const survivor = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'survivor']);
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 1, coordinator.stderr());
	const report = await readReport(artifacts);
	t.equal(report.completion, 'finished');
	t.same(report.tasks.map(task => [task.task_id, task.status, task.reason]), [
		['test_failure_fix', 'failed', 'worker_lost'],
		['json_config_migration', 'passed', null],
		['answer_from_prompt', 'passed', null],
	]);
	t.match(report.tasks[0]!.message, /worker doomed stopped renewing its lock on this task .*not retried/);
	t.same(await answeringNodes(artifacts), ['survivor', 'survivor'], 'the lost task was never run again');
	t.same(report.tasks.map(task => task.node), ['doomed', 'survivor', 'survivor'], 'each task names its node: the lost one the node that took it');
	t.equal(await ledgerLines(join(artifacts, 'ledger.jsonl')), 3);
	t.match(report.leak_audit?.nodes, [{node: 'doomed', backend: null, survivors: null}, {node: 'survivor', backend: /\w/, survivors: []}].sort((a, b) => a.node.localeCompare(b.node)), 'each admitted node, the killed one with its audit unknown');
	t.ok(report.problems.some(problem => /^queue node doomed: its final leak audit did not arrive \(none came within \d+ ms/.test(problem)), `the node that never posted its audit is a named problem: ${report.problems.join('; ')}`);
	t.notOk(report.problems.some(problem => problem.includes('survivor')), 'the node that posted is not');
	await survivor.stop();
});

t.test('a Redis that does not answer at start: one line, exit 2, no evidence directory', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt'});
	const port = await freePort();
	const run = await runInGroup({argv: [process.execPath, evalEntry(), 'eval', '--plan', plan, '--artifacts', join(dir, 'queued'), '--queue', `redis://127.0.0.1:${port}`], env: queueEnv, deadlineMs: 60_000});
	t.equal(run.record.exit_code, 2);
	const stderr = run.stderr?.toString() ?? '';
	t.match(stderr, new RegExp(`^hlab: Redis at redis://127\\.0\\.0\\.1:${port}/? is unreachable: .*\\n$`));
	t.equal(stderr.trim().split('\n').length, 1, 'one line');
	t.notOk(existsSync(join(dir, 'queued')), 'nothing was written');
});


t.test('evidence over the bound fails its task with evidence_limit, naming sizes and where it is kept; nothing is cut short', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'json_config_migration', policy: {concurrency: 1}});
	const worker = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'w']);
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--evidence-limit', '1KiB', '--json']);
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 1, coordinator.stderr());
	const task = (await readReport(artifacts)).tasks[0]!;
	t.equal(task.reason, 'evidence_limit');
	t.match(task.message, /the task's exported evidence is \d+ bytes, over the bound of 1024; nothing was sent, worker w keeps it at \//);
	t.ok(task.grade !== null, 'the grade the worker gave is kept beside the failure');
	const kept = /keeps it at (\S+)$/.exec(task.message!)![1]!;
	t.ok(existsSync(join(kept, 'journal.jsonl')), 'the worker kept the whole evidence');
	await worker.stop();
	// The worker's own folder, which it leaves when it holds kept evidence.
	await rm(join(kept, '..', '..', '..'), {recursive: true, force: true});
});
