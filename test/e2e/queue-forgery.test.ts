import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {QueueEvents, Worker, type Job} from 'bullmq';
import {Redis} from 'ioredis';
import t, {type Test} from 'tap';
import {failedResult} from '../../supervisor/attempt/index.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {QueueAudit} from '../../supervisor/queue/queue-audit.js';
import {checkNoLeaks} from '../leak-check.js';
import {startRedis, type RedisServer} from '../supervisor/queue/redis-server.js';
import {freeze, scratch} from './experiment-fixture.js';
import {startHlab, waitFor} from './queue-fixture.js';

checkNoLeaks(t);

const readReport = async (dir: string): Promise<Report> => Report.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));
const readAudit = async (dir: string): Promise<QueueAudit> => QueueAudit.parse(JSON.parse(await readFile(join(dir, 'queue-audit.json'), 'utf8')));

/** A passed verdict as an attacker writes it: the shape a queue node returns, with no seal. */
function forgedAnswer(index: number, taskId: string, node: string): Record<string, unknown> {
	const result = {...failedResult(index, taskId, {reason: 'crash', message: 'forged'}), status: 'passed', reason: null, message: 'forged by the test'};
	return {worker: node, result, problem: null, files: [], seal: null};
}

/** The attempt's queue, once its coordinator has opened it. */
async function attemptQueue(redis: RedisServer): Promise<string> {
	const client = redis.client();
	let ids: string[] = [];
	await waitFor('the attempt to open', async () => (ids = await client.smembers('hlab:attempts')).length > 0);
	return `hlab-${ids[0]!}`;
}

/** A rogue BullMQ worker on the attempt's queue, as anyone who reaches the Redis can start one; closed when the test ends. */
function rogueWorker(t: Test, redis: RedisServer, queue: string, name: string, answer: (job: Job) => Promise<unknown>): Worker {
	const connection = new Redis(redis.port, '127.0.0.1', {maxRetriesPerRequest: null});
	connection.on('error', () => undefined);
	const worker = new Worker(queue, answer, {connection, name, drainDelay: 1});
	worker.on('error', () => undefined);
	t.teardown(async () => {
		await worker.close(true);
		connection.disconnect();
	});
	return worker;
}

t.test('a rogue BullMQ worker answers a job with a forged pass: refused, recorded, the task fails worker_lost', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt', policy: {concurrency: 1}});
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--node-lock', '1500ms', '--json']);
	rogueWorker(t, redis, await attemptQueue(redis), 'rogue', async job => forgedAnswer(job.data.index, job.data.task_id, 'rogue'));
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 1, coordinator.stderr());
	const task = (await readReport(artifacts)).tasks[0]!;
	t.equal(task.status, 'failed');
	t.equal(task.reason, 'worker_lost');
	t.match(task.message, /no valid answer came: .*node rogue, refused because node rogue was not admitted/);
	const audit = await readAudit(artifacts);
	t.equal(audit.queue_auth, 'hmac-sha256');
	t.match(audit.refused, [{what: 'answer', claimed_node: 'rogue', index: 0, task_id: 'answer_from_prompt', why: /not admitted/}]);
	t.same(audit.answered, [], 'no node answered');
});

t.test('a forged completion for a job a real node holds is refused; the real node\'s answer is the one recorded', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'test_failure_fix', policy: {concurrency: 1}});
	const real = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'real']);
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--json']);
	const queue = await attemptQueue(redis);
	const client = redis.client();
	await waitFor('the real node to hold the job', async () => await client.llen(`bull:${queue}:active`) > 0);
	// What BullMQ's own completion writes: the return value on the job, and a completed event on the queue's stream.
	const forged = JSON.stringify(forgedAnswer(0, 'test_failure_fix', 'real'));
	await client.hset(`bull:${queue}:task-0`, 'returnvalue', forged);
	await client.xadd(`bull:${queue}:events`, '*', 'event', 'completed', 'jobId', 'task-0', 'returnvalue', forged);
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 0, coordinator.stderr());
	const task = (await readReport(artifacts)).tasks[0]!;
	t.equal(task.status, 'passed');
	t.not(task.message, 'forged by the test', 'the forged verdict was not recorded');
	const audit = await readAudit(artifacts);
	t.match(audit.refused, [{what: 'answer', claimed_node: 'real', job_id: 'task-0', why: /not sealed/}]);
	t.same(audit.answered, [{index: 0, task_id: 'test_failure_fix', node: 'real'}], 'the evidence names the node that ran the task');
	t.same(audit.admitted, ['real']);
	await real.stop();
});

t.test('a node\'s valid answer replayed for another entry (its task renamed) is refused', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	// Two lanes, a node of one: the slow first task holds the node while the second waits for the rogue to take it.
	const plan = await freeze({dir, tasks: 'test_failure_fix,answer_from_prompt', policy: {concurrency: 2}});
	const real = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'real', '--parallel-tasks', '1']);
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--json']);
	const queue = await attemptQueue(redis);
	const client = redis.client();
	// The real answer for the first entry, as the queue's event stream carries it to anyone listening.
	const listening = new Redis(redis.port, '127.0.0.1', {maxRetriesPerRequest: null});
	listening.on('error', () => undefined);
	const events = new QueueEvents(queue, {connection: listening});
	events.on('error', () => undefined);
	t.teardown(async () => {
		await events.close();
		listening.disconnect();
	});
	const valid = new Promise<Record<string, unknown>>(resolve => events.on('completed', ({jobId, returnvalue}) => {
		if (jobId === 'task-0') resolve((typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as Record<string, unknown>);
	}));
	await events.waitUntilReady();
	await waitFor('the node to hold the first job and the second to wait', async () => await client.llen(`bull:${queue}:active`) > 0 && await client.llen(`bull:${queue}:wait`) > 0);
	rogueWorker(t, redis, queue, 'real', async job => {
		const copy = structuredClone(await valid);
		const result = copy.result as Record<string, unknown>;
		return {...copy, result: {...result, index: job.data.index, task_id: job.data.task_id}};
	});
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 1, coordinator.stderr());
	const report = await readReport(artifacts);
	t.same(report.tasks.map(task => [task.task_id, task.status, task.reason]), [['test_failure_fix', 'passed', null], ['answer_from_prompt', 'failed', 'worker_lost']]);
	const audit = await readAudit(artifacts);
	t.match(audit.refused, [{what: 'answer', claimed_node: 'real', job_id: 'task-1', index: 1, why: /seal does not match/}]);
	t.same(audit.answered, [{index: 0, task_id: 'test_failure_fix', node: 'real'}]);
	await real.stop();
});
