import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {checkNoLeaks} from '../leak-check.js';
import {startRedis} from '../supervisor/queue/redis-server.js';
import {freeze, scratch} from './experiment-fixture.js';
import {answeringNodes, startHlab, waitFor} from './queue-fixture.js';

checkNoLeaks(t);

t.test('a worker told to stop (SIGTERM) mid-task ends it, answers it as failed, and takes no further task', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	// Two lanes for a worker of one: the second task waits in the queue while the first runs, for a stopping worker to take or not.
	const plan = await freeze({dir, tasks: 'test_failure_fix,json_config_migration,answer_from_prompt', policy: {concurrency: 2}});
	const leaving = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'leaving']);
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--json']);
	const client = redis.client();
	await waitFor('the first task to be taken', async () => {
		const active = await client.keys('bull:*:active');
		return active.length > 0 && await client.llen(active[0]!) > 0;
	});
	// To the worker itself, as Kubernetes does: serving an attempt, it sits in that attempt's cgroup.
	process.kill(leaving.pid, 'SIGTERM');
	const left = await leaving.ended;
	t.equal(left.record.exit_code, 0, leaving.stderr());
	const staying = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'staying']);
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 1, coordinator.stderr());
	const report = Report.parse(JSON.parse(await readFile(join(artifacts, 'report.json'), 'utf8')));
	t.equal(report.completion, 'finished');
	t.equal(report.tasks[0]!.status, 'failed');
	t.match(report.tasks[0]!.reason, /^(aborted|unfinished)$/, report.tasks[0]!.message ?? '');
	t.same(report.tasks.slice(1).map(task => task.status), ['passed', 'passed']);
	t.same(await answeringNodes(artifacts), ['leaving', 'staying', 'staying'], 'the stopping worker answered only the task it had');
	await staying.stop();
});
