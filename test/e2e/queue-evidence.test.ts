import {readdir, readFile} from 'node:fs/promises';
import {join, relative} from 'node:path';
import t from 'tap';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {checkNoLeaks} from '../leak-check.js';
import {startRedis} from '../supervisor/queue/redis-server.js';
import {attemptByCli, freeze, scratch} from './experiment-fixture.js';
import {startHlab, testQueueSecret, waitFor} from './queue-fixture.js';
import {createHmac} from 'node:crypto';

checkNoLeaks(t);

const tasks = ['json_config_migration', 'answer_from_prompt'];

/** What only a queued attempt has: the record of its queue and its audit (the placement's own files). */
const placementFiles = new Set(['queue.json', 'queue-audit.json']);
/** Keys that differ by placement (where the turns ran and on which node, the threads and executor the coordinator did not start), and the command line. */
const placementKeys = new Set(['placement', 'queue', 'threads', 'executor', 'argv', 'nodes', 'node']);
/** The coordinator's log says other things than a local attempt's: its presence is compared, not its lines. */
const freeText = new Set(['log.jsonl']);
/** Journal records of timing, not of what happened: a request that waited a millisecond for the shared limiter says so. */
const timingRecords = new Set(['limiter_wait']);
/** Appended as tasks end: at concurrency 2 either task may end first, so the lines' structures are compared as a set. */
const completionOrder = new Set(['ledger.jsonl']);

async function filesOf(dir: string): Promise<string[]> {
	const entries = await readdir(dir, {recursive: true, withFileTypes: true});
	return entries.filter(entry => entry.isFile()).map(entry => relative(dir, join(entry.parentPath, entry.name))).sort();
}

/** A key that is data, not structure: a tool call's id (a trajectory's results are timed by call id), random per run. */
const callId = /^call_[0-9a-f]+_/;

/** A JSON value's structure: keys and the kind of each value, never the value (timings, ids, pids and paths differ). */
function shapeOf(value: unknown): unknown {
	if (value === null) return 'null';
	if (Array.isArray(value)) return value.map(item => shapeOf(item));
	if (typeof value === 'object') {
		const kept = Object.entries(value).filter(([name]) => !placementKeys.has(name)).map(([name, item]) => [name.replace(callId, 'call_ID_'), item] as const).sort(([a], [b]) => a.localeCompare(b));
		return Object.fromEntries(kept.map(([name, item]) => [name, shapeOf(item)]));
	}
	return typeof value;
}

/** A JSON file's structure, or each line's for JSON lines; other files are compared by presence only. */
async function structureOf(dir: string, file: string): Promise<unknown> {
	const name = file.split('/').at(-1)!;
	if (freeText.has(name)) return 'present';
	const text = await readFile(join(dir, file), 'utf8');
	if (name.endsWith('.jsonl')) {
		const records = text.trim().split('\n').filter(line => line !== '').map(line => JSON.parse(line) as {type?: string});
		const lines = records.filter(record => !timingRecords.has(record.type ?? '')).map(record => shapeOf(record));
		return completionOrder.has(file) ? lines.map(line => JSON.stringify(line)).sort() : lines;
	}
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
	t.match(queued.leak_audit?.nodes, [{node: 'n1', backend: local.report.leak_audit?.backend, survivors: []}], 'and the node\'s own final audit, which it posted once the attempt was withdrawn');
	t.same(queued.problems, [], 'the node\'s audit arrived: no problem');
	t.same(queued.tasks.map(task => task.node), ['n1', 'n1'], 'each queued task names the node that ran it');
	t.ok(local.report.tasks.every(task => task.node === undefined), 'a local one names none');
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

/** A forged final audit: the shape a node posts, claiming leaks and a survivor, sealed with a guess or with another secret. */
function forgedAudit(node: string, attemptId: string, nonce: string, secret: string): string {
	const audit = {leaks: {backend: 'proc', limits: 'forged', leaked: [{pid: 4242, argv: ['forged'], comm: 'forged', found: 'attempt-marker', ended: 'sigkill', task_index: null}], survivors: [4343]}, problems: ['forged problem']};
	const mac = createHmac('sha256', secret).update(JSON.stringify({attempt_id: attemptId, audit, node, node_nonce: nonce, purpose: 'harness-lab/queue-node-audit'})).digest('hex');
	return JSON.stringify({node, audit, seal: {node_nonce: nonce, mac}});
}

t.test('a node\'s final audit reaches the report only sealed by an admitted node: forged ones are refused and recorded', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt', policy: {concurrency: 1}});
	const node = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'n1']);
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url]);
	const client = redis.client();
	t.teardown(() => client.disconnect());
	await waitFor('the node to admit itself', async () => (await client.keys('hlab:attempt:*:nodes')).length > 0);
	const attemptId = (await client.smembers('hlab:attempts'))[0]!;
	const admission = JSON.parse((await client.hget(`hlab:attempt:${attemptId}:nodes`, 'n1'))!) as {nonce: string};
	// Someone who reaches Redis, without the secret: a node never admitted, and n1's real nonce sealed with a wrong secret.
	await client.hset(`hlab:attempt:${attemptId}:audits`, 'mallory', forgedAudit('mallory', attemptId, admission.nonce, testQueueSecret));
	await client.hset(`hlab:attempt:${attemptId}:audits`, 'n1-copy', forgedAudit('n1', attemptId, admission.nonce, 'a guessed secret'));
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 0, coordinator.stderr());
	const report = await readReport(artifacts);
	t.match(report.leak_audit?.nodes, [{node: 'n1', backend: /\w/, survivors: []}], 'only the real node\'s audit is in the report');
	t.notOk(report.leak_audit?.leaked.some(leak => leak.pid === 4242), 'no forged leak');
	t.same(report.problems, [], 'no forged problem');
	const audit = JSON.parse(await readFile(join(artifacts, 'queue-audit.json'), 'utf8')) as {refused: Array<{what: string; claimed_node: string | null; why: string}>};
	const refused = audit.refused.filter(claim => claim.what === 'audit');
	t.match(refused.find(claim => claim.claimed_node === 'mallory'), {why: /node mallory was not admitted/}, 'an audit from a node never admitted is refused and recorded');
	t.match(refused.find(claim => claim.claimed_node === 'n1'), {why: /its seal does not match/}, 'an audit sealed with another secret is refused and recorded');
	t.match(coordinator.stderr(), /refused a final leak audit claimed to be from node mallory/);
	await node.stop();
});
