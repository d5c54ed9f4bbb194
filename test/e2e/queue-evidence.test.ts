import {readdir, readFile} from 'node:fs/promises';
import {join, relative} from 'node:path';
import t from 'tap';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {checkNoLeaks} from '../leak-check.js';
import {startRedis} from '../supervisor/queue/redis-server.js';
import {attemptByCli, freeze, scratch} from './experiment-fixture.js';
import {startHlab, waitFor} from './queue-fixture.js';

checkNoLeaks(t);

const tasks = ['json_config_migration', 'answer_from_prompt'];

/** What only a queued attempt has: the record of its queue and its audit (the placement's own files). */
const placementFiles = new Set(['queue.json', 'queue-audit.json']);
/** Keys that differ by placement (where the turns ran, the threads and executor the coordinator did not start), and the command line. */
const placementKeys = new Set(['placement', 'queue', 'threads', 'executor', 'argv']);
/** The coordinator's log says other things than a local attempt's: its presence is compared, not its lines. */
const freeText = new Set(['log.jsonl']);

async function filesOf(dir: string): Promise<string[]> {
	const entries = await readdir(dir, {recursive: true, withFileTypes: true});
	return entries.filter(entry => entry.isFile()).map(entry => relative(dir, join(entry.parentPath, entry.name))).sort();
}

/** A JSON value's structure: keys and the kind of each value, never the value (timings, ids, pids and paths differ). */
function shapeOf(value: unknown): unknown {
	if (value === null) return 'null';
	if (Array.isArray(value)) return value.map(item => shapeOf(item));
	if (typeof value === 'object') {
		const kept = Object.entries(value).filter(([name]) => !placementKeys.has(name)).sort(([a], [b]) => a.localeCompare(b));
		return Object.fromEntries(kept.map(([name, item]) => [name, shapeOf(item)]));
	}
	return typeof value;
}

/** A JSON file's structure, or each line's for JSON lines; other files are compared by presence only. */
async function structureOf(dir: string, file: string): Promise<unknown> {
	const name = file.split('/').at(-1)!;
	if (freeText.has(name)) return 'present';
	const text = await readFile(join(dir, file), 'utf8');
	if (name.endsWith('.jsonl')) return text.trim().split('\n').filter(line => line !== '').map(line => shapeOf(JSON.parse(line)));
	if (name.endsWith('.json')) return shapeOf(JSON.parse(text));
	return 'present';
}

async function treeOf(dir: string): Promise<Record<string, unknown>> {
	const files = (await filesOf(dir)).filter(file => !placementFiles.has(file));
	return Object.fromEntries(await Promise.all(files.map(async file => [file, await structureOf(dir, file)] as const)));
}

async function readReport(dir: string): Promise<Report> {
	return Report.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));
}

t.test('a plan run through one queue node leaves the evidence tree a local attempt leaves, attempt record and leak audit included', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: tasks.join(','), policy: {concurrency: 2}});
	const local = await attemptByCli(plan, join(dir, 'local'));
	const node = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'n1', '--parallel-tasks', '2']);
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', join(dir, 'queued'), '--queue', redis.url]);
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 0, coordinator.stderr());
	const queued = await readReport(join(dir, 'queued'));
	t.equal(local.report.placement, 'local');
	t.equal(queued.placement, 'queue', 'the report records where the turns ran');
	t.equal(queued.timing, 'in-process', 'apart from how the node executed them');
	t.match(queued.queue, {name: /./, redis: new RegExp(`^redis://127\\.0\\.0\\.1:${redis.port}/?$`)});
	t.match(run.stdout?.toString() ?? '', new RegExp(`baseline attempt finished \\(queue ${queued.queue!.name} on redis://127\\.0\\.0\\.1:${redis.port}/?, in-process\\): 2/2 passed`), 'the summary line names the queue');
	t.ok(queued.leak_audit !== null && queued.leak_audit !== undefined, 'the queued report has the final leak audit');
	t.ok(queued.tasks.every(task => task.leak_audit !== undefined), 'each queued task has its own leak audit');
	const [localTree, queuedTree] = await Promise.all([treeOf(local.dir), treeOf(join(dir, 'queued'))]);
	t.same(Object.keys(queuedTree), Object.keys(localTree), 'the same files');
	t.ok(Object.keys(queuedTree).includes('attempt.json'), 'the attempt record among them');
	for (const file of Object.keys(localTree)) t.same(queuedTree[file], localTree[file], `${file}: the same structure`);
	const compared = await startHlab(t, undefined, ['eval', '--compare', `${local.dir}/report.json,${join(dir, 'queued')}/report.json`, '--json', '--no-html']);
	const decision = JSON.parse((await compared.ended).stdout?.toString() ?? 'null') as {checks: Array<{rule: string; satisfied: boolean; message: string}>};
	t.match(decision.checks.find(check => check.rule === 'timing'), {satisfied: true}, '--compare takes a local and a queued report as both in-process');
	await waitFor('the node to leave the finished attempt', () => node.stderr().includes('done with attempt'), 30_000);
	t.match(node.stderr(), /final leak audit \[\w+\]: 0 process\(es\) outlived/, 'the node ran the final leak audit, which found nothing');
	t.notMatch(node.stderr(), /refused|problem/);
	// How a node stops is queue-worker-stop.test.ts's concern; stopped here so that nothing of it outlives the test.
	await node.stop();
});
