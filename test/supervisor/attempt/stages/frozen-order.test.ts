import {randomBytes} from 'node:crypto';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {failedResult} from '../../../../supervisor/attempt/task-core/failed-result.js';
import {runInFrozenOrder} from '../../../../supervisor/attempt/stages/frozen-order.js';
import {Ledger, readLedger} from '../../../../supervisor/attempt/task-core/ledger.js';
import type {TaskResult} from '../../../../supervisor/attempt/report/report-schema.js';
import {tempDir} from '../../../temp-dir.js';

const ids = ['slow', 'quick-1', 'quick-2', 'quick-3', 'quick-4'];

/** A denominator whose first entry takes longest, recorded in a real ledger as each entry finishes. */
async function schedule(dir: string, lanes: number, signal?: AbortSignal, onStart: (index: number) => void = () => undefined) {
	const ledger = new Ledger(join(dir, 'ledger.jsonl'), 'attempt-1', randomBytes(32));
	const starts: number[] = [];
	let running = 0;
	let most = 0;
	const results = await runInFrozenOrder<TaskResult>({
		count: ids.length,
		lanes,
		signal,
		async run(index) {
			starts.push(index);
			onStart(index);
			most = Math.max(most, ++running);
			await sleep(index === 0 ? 120 : 10);
			running -= 1;
			const result = failedResult(index, ids[index]!, {reason: 'grader', message: `ran ${index}`});
			await ledger.append(result);
			return result;
		},
		notStarted: index => failedResult(index, ids[index]!, {reason: 'unfinished', message: 'not started'}),
	});
	const recorded = (await readLedger(join(dir, 'ledger.jsonl'))).records.map(record => record.result.task_id);
	return {results, starts, most, recorded};
}

t.test('one lane records the denominator in frozen order', async t => {
	const run = await schedule(await tempDir(t), 1);
	t.same(run.recorded, ids);
	t.same(run.starts, [0, 1, 2, 3, 4]);
	t.equal(run.most, 1);
});

t.test('at the frozen concurrency, entries start in frozen order and results keep it whatever the completion order', async t => {
	const run = await schedule(await tempDir(t), 3);
	t.same(run.starts, [0, 1, 2, 3, 4], 'each free lane takes the next entry in frozen order');
	t.equal(run.most, 3, 'never more than the frozen concurrency at once');
	t.not(run.recorded[0], 'slow', `the ledger shows completion order (${run.recorded.join(', ')})`);
	t.same([...run.recorded].sort(), [...ids].sort(), 'every entry recorded once');
	t.same(run.results.map(result => result.task_id), ids, 'results are placed by frozen index');
	t.same(run.results.map(result => result.index), [0, 1, 2, 3, 4]);
});

t.test('more lanes than entries run each entry once', async t => {
	const run = await schedule(await tempDir(t), 64);
	t.equal(run.most, ids.length);
	t.same(run.results.map(result => result.task_id), ids);
	t.equal(run.recorded.length, ids.length);
});

t.test('an interruption keeps the rest from starting; they stay in the denominator as not started', async t => {
	const stop = new AbortController();
	const run = await schedule(await tempDir(t), 1, stop.signal, index => {
		if (index === 1) stop.abort();
	});
	t.same(run.starts, [0, 1], 'an entry already started finishes; none starts after the interruption');
	t.same(run.recorded, ['slow', 'quick-1']);
	t.same(run.results.map(result => result.task_id), ids, 'the denominator is whole');
	t.same(run.results.map(result => result.reason), ['grader', 'grader', 'unfinished', 'unfinished', 'unfinished']);
});
