import t from 'tap';
import {progressFrame, type ProgressState} from '../../../../supervisor/attempt/progress/progress-frame.js';

const state = (change: Partial<ProgressState>): ProgressState => ({
	total: 4, done: 0, passed: 0, failed: 0, elapsedMs: 0, tokens: 0, running: new Map(), now: 10_000, ...change,
});

t.test('before a task finishes the time left is unknown, never zero', async t => {
	const [counts] = progressFrame(state({running: new Map([['a', 9000]]), elapsedMs: 1000}));
	t.match(counts, /time left unknown/);
	t.notMatch(counts, /~0\.0s left/);
});

t.test('the estimate applies the rate of finished tasks to those left', async t => {
	const [counts] = progressFrame(state({done: 1, passed: 1, elapsedMs: 2000}));
	t.match(counts, /tasks 1\/4 done, 0 running, 1 passed, 0 failed, 2\.0s elapsed, ~6\.0s left, 0 tokens so far/);
});

t.test('tokens unknown are said so', async t => {
	t.match(progressFrame(state({tokens: null}))[0], /tokens unknown/);
	t.match(progressFrame(state({tokens: 12_345}))[0], /12,345 tokens so far/);
});

t.test('running tasks are named oldest first with their time, the rest counted', async t => {
	const running = new Map(Array.from({length: 8}, (_, index) => [`task_${index}`, 9000 - index * 100] as [string, number]));
	const [, line] = progressFrame(state({running}));
	t.match(line, /^running: task_7 \(1\.7s\), task_6 \(1\.6s\)/);
	t.match(line, /, \+2 more$/);
	t.equal(progressFrame(state({}))[1], 'running: none');
});
