import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {checkNoLeaks} from '../leak-check.js';
import {startRedis} from '../supervisor/queue/redis-server.js';
import {freeze, scratch} from './experiment-fixture.js';
import {startHlab, waitFor} from './queue-fixture.js';

checkNoLeaks(t);

const readReport = async (dir: string): Promise<Report> => Report.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));
const count = (text: string, pattern: RegExp): number => text.split('\n').filter(line => pattern.test(line)).length;
const waiting = /^hlab: waiting for queue nodes on redis:\/\/127\.0\.0\.1:\d+ to take 2 lanes \(the plan's concurrency\)/;

t.test('a coordinator with no queue node says it waits, once, then gives up after --node-wait with a report', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt,implement_function,sales_report', policy: {concurrency: 2}});
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--node-wait', '2s', '--json']);
	const run = await coordinator.ended;
	const stderr = coordinator.stderr();
	t.not(run.record.exit_code, 0, stderr);
	t.equal(count(stderr, waiting), 1, `the wait is said once: ${stderr}`);
	t.equal(count(stderr, /no queue node took a task within 2s \(--node-wait\); the attempt ends as interrupted/), 1, stderr);
	t.notMatch(stderr, /took the first task/);
	const report = await readReport(artifacts);
	t.equal(report.completion, 'interrupted');
	t.same(report.problems.filter(problem => /no queue node took a task within 2s/.test(problem)).length, 1, report.problems.join('; '));
	t.ok(report.tasks.every(task => task.status === 'failed'), 'no task ran');
	t.same(await redis.client().keys('*'), [], 'nothing of the attempt is left in Redis');
});

t.test('a coordinator with no queue node stops on SIGTERM and writes its report', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt,implement_function', policy: {concurrency: 2}});
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--json']);
	await waitFor('the coordinator to say it waits', () => waiting.test(coordinator.stderr().split('\n').find(line => line.includes('waiting for queue nodes')) ?? ''));
	process.kill(coordinator.pid, 'SIGTERM');
	const run = await coordinator.ended;
	t.not(run.record.exit_code, 0, coordinator.stderr());
	const report = await readReport(artifacts);
	t.equal(report.completion, 'interrupted');
	t.same(await redis.client().keys('*'), [], 'nothing of the attempt is left in Redis');
});

t.test('the coordinator says, once, when the first queue node takes work', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt,implement_function', policy: {concurrency: 2}});
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--json']);
	await waitFor('the coordinator to say it waits', () => coordinator.stderr().includes('waiting for queue nodes'));
	const node = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'n1']);
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 0, coordinator.stderr());
	t.equal(count(coordinator.stderr(), /^hlab: a queue node took the first task$/), 1, coordinator.stderr());
	await node.stop();
});
