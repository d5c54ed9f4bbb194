import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {runInGroup} from '../../process/index.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {checkNoLeaks} from '../leak-check.js';
import {freePort, startRedis} from '../supervisor/queue/redis-server.js';
import {freeze, scratch} from './experiment-fixture.js';
import {evalEntry} from './install-copy.js';
import {answeringNodes, ledgerLines, startHlab, waitFor} from './queue-fixture.js';

checkNoLeaks(t);

const readReport = async (dir: string): Promise<Report> => Report.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));

t.test('a coordinator SIGKILLed mid-attempt: --recover writes the report from the ledger and removes the attempt\'s queue', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'json_config_migration,answer_from_prompt,test_failure_fix,implement_function,sales_report', policy: {concurrency: 1}});
	const worker = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'w']);
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--json']);
	await waitFor('two recorded tasks', async () => await ledgerLines(join(artifacts, 'ledger.jsonl')) >= 2);
	process.kill(coordinator.pid, 'SIGKILL');
	await coordinator.ended;
	const client = redis.client();
	t.equal(await client.scard('hlab:attempts'), 1, 'the dead coordinator left its attempt open');
	const recover = await runInGroup({argv: [process.execPath, evalEntry(), 'eval', '--recover', artifacts, '--json'], deadlineMs: 60_000});
	t.equal(recover.record.exit_code, 1, recover.stderr?.toString() ?? '');
	t.match(recover.stderr?.toString(), /the attempt's queue hlab-.* was withdrawn and removed/);
	const report = await readReport(artifacts);
	t.equal(report.completion, 'recovered');
	const recorded = report.tasks.filter(task => task.reason !== 'unfinished');
	t.ok(recorded.length >= 2 && recorded.every(task => task.status === 'passed'), 'recorded tasks keep their verdicts');
	t.equal(await client.scard('hlab:attempts'), 0, 'no worker is offered the attempt any more');
	t.same(await client.keys('bull:*'), [], 'no job of the attempt is left for a worker to take');
	await waitFor('the worker to stop serving the withdrawn attempt', () => worker.stderr().includes('done with attempt'), 30_000);
	const ended = await worker.stop();
	t.equal(ended.record.exit_code, 0, worker.stderr());
});

t.test('Redis lost mid-attempt: the attempt ends interrupted, every recorded task kept', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'json_config_migration,answer_from_prompt,test_failure_fix,implement_function', policy: {concurrency: 1}});
	const worker = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'w']);
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--json']);
	await waitFor('two recorded tasks', async () => await ledgerLines(join(artifacts, 'ledger.jsonl')) >= 2);
	await redis.stop();
	// Stopped beside the coordinator's end, not after it (nothing reaches the coordinator but through Redis).
	const workerStopped = worker.stop();
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 1, coordinator.stderr());
	t.match(coordinator.stderr(), /the connection to Redis at .* was lost; the attempt ends as interrupted/);
	const report = await readReport(artifacts);
	t.equal(report.completion, 'interrupted');
	t.same(report.tasks.slice(0, 2).map(task => task.status), ['passed', 'passed'], 'the recorded tasks are kept');
	t.ok(report.tasks.slice(2).every(task => task.status === 'failed' && (task.reason === 'aborted' || task.reason === 'unfinished')), report.tasks.map(task => `${task.task_id}: ${task.reason}`).join(', '));
	// Not asserted: whether the node ends by itself. Its Redis clients stop looking for the lost server once it stops,
	// which ended it by itself in every run here, but a clean-clone CI run once saw it held to the fixture's SIGKILL.
	await workerStopped;
});
