import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {LedgerRecord, Report, TaskResult} from '../../supervisor/attempt/report/report-schema.js';
import {checkNoLeaks} from '../leak-check.js';
import {startRedis} from '../supervisor/queue/redis-server.js';
import {attempt, freeze, scratch} from './experiment-fixture.js';
import {copyInstallation} from './install-copy.js';
import {answeringNodes, startHlab, waitFor} from './queue-fixture.js';

checkNoLeaks(t);

// Quick tasks (the slow ones add time, not coverage): four, so two lanes overlap on two workers.
const tasks = ['json_config_migration', 'sales_report', 'implement_function', 'answer_from_prompt'];

async function readReport(dir: string): Promise<Report> {
	return Report.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));
}

/** What must be the same whoever ran the tasks: order, verdicts, reasons, grades, and which evidence files each task has. */
async function comparable(dir: string, report: Report): Promise<unknown> {
	const folders = await Promise.all(report.tasks.map(async task => (await readdir(join(dir, task.evidence.result!, '..'))).sort()));
	return {
		task_ids: report.task_ids,
		tasks: report.tasks.map((task, index) => ({index: task.index, id: task.task_id, status: task.status, reason: task.reason, grade: task.grade, evidence: Object.keys(task.evidence).sort(), files: folders[index]})),
		totals: {passed: report.totals.passed, failed: report.totals.failed},
	};
}

/** Each task's result.json, ledger record and report entry name the node that answered it (the log says which). */
async function nodesRecorded(t: Test, dir: string, report: Report, answered: string[]): Promise<void> {
	const ledger = (await readFile(join(dir, 'ledger.jsonl'), 'utf8')).trim().split('\n').map(line => LedgerRecord.parse(JSON.parse(line)));
	const results = await Promise.all(report.tasks.map(async task => TaskResult.parse(JSON.parse(await readFile(join(dir, task.evidence.result!), 'utf8')))));
	t.same(results.map(result => result.node).sort(), [...answered].sort(), 'each result.json names the node that answered it');
	t.same(report.tasks.map(task => task.node), results.map(result => result.node), 'the report names the same nodes');
	t.same(report.tasks.map(task => ledger.find(record => record.result.index === task.index)?.result.node), results.map(result => result.node), 'and so does the ledger');
}

t.test('two workers, each from its own copy of the installation, give the report a local attempt gives', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: tasks.join(','), policy: {concurrency: 2}});
	const t0 = performance.now();
	const local = await attempt(plan, join(dir, 'local'));
	t.comment(`local attempt ${Math.round(performance.now() - t0)} ms`);
	const workers = await Promise.all(['w1', 'w2'].map(async name => startHlab(t, await copyInstallation(join(dir, name)), ['queue-node', '--queue', redis.url, '--name', name])));
	t.comment(`copies and workers started ${Math.round(performance.now() - t0)} ms`);
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', join(dir, 'queued'), '--queue', redis.url, '--json']);
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 0, coordinator.stderr());
	t.comment(`queued attempt done ${Math.round(performance.now() - t0)} ms`);
	const queued = await readReport(join(dir, 'queued'));
	t.equal(queued.completion, 'finished');
	t.same(await comparable(join(dir, 'queued'), queued), await comparable(local.dir, local.report), 'same order, results, grades and evidence files');
	const answered = await answeringNodes(join(dir, 'queued'));
	t.equal(answered.length, tasks.length, 'every task was answered by a worker');
	t.ok(answered.every(name => name === 'w1' || name === 'w2'), answered.join(', '));
	await nodesRecorded(t, join(dir, 'queued'), queued, answered);
	t.ok(local.report.tasks.every(task => task.node === undefined), 'a local attempt names no node');
	t.match(JSON.parse(await readFile(join(dir, 'queued', 'queue.json'), 'utf8')), {schema: 'harness-lab/attempt-queue@1', redis: new RegExp(`^redis://127\\.0\\.0\\.1:${redis.port}/?$`)});
	// The attempt is withdrawn and its queue removed: nothing of it stays in Redis.
	await waitFor('the attempt\'s keys to go', async () => (await redis.client().keys('*')).length === 0, 10_000).catch(() => undefined);
	t.same(await redis.client().keys('*'), [], 'no key of the attempt is left in Redis');
	for (const worker of workers) {
		// Stopped once idle: a worker serving an attempt sits in that attempt's own cgroup, where a stop of its test group does not reach.
		await waitFor('the worker to leave the finished attempt', () => worker.stderr().includes('done with attempt'), 30_000);
		const ended = await worker.stop();
		t.equal(ended.record.exit_code, 0, `a worker stops cleanly on SIGTERM: ${worker.stderr()}`);
	}
});

