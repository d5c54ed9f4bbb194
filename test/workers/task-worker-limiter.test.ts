import {join} from 'node:path';
import {MessageChannel} from 'node:worker_threads';
import {Piscina} from 'piscina';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {createProviderLimiter, type ProviderLimiterShare} from '../../engine/index.js';
import {distPath} from '../../files/install-root.js';
import type {TaskJob, TaskJobResult} from '../../workers/task-job.js';
import {answerTwoTurns, busiestWindow, requestsDuringAdvice, startEndpoint, stormReply} from '../engine/provider-endpoint.js';
import {readJsonl} from '../engine/engine-run.js';

checkNoLeaks(t);

t.test('a 429 storm across 4 worker threads: the limiter in one SharedArrayBuffer backs every thread off together', async t => {
	// The task worker the supervisor runs, two tasks per thread so all 8 run at once on 4 threads.
	const pool = new Piscina<TaskJob | {warmup: true}, TaskJobResult | 'warm'>({filename: distPath('workers/task-worker.js'), minThreads: 4, maxThreads: 4, concurrentTasksPerWorker: 2, atomics: 'disabled'});
	t.teardown(() => pool.destroy());
	// As the supervisor does: every thread loads the engine before any task is timed.
	await Promise.all(Array.from({length: 8}, () => pool.run({warmup: true})));
	const dir = await tempDir(t);
	const run = async (index: number, url: string, share?: ProviderLimiterShare): Promise<TaskJobResult | 'warm'> => {
		const {port1, port2} = new MessageChannel();
		try {
			return await pool.run({
				task: {id: `storm-${index}`, prompt: 'Finish the task.'},
				workspace: dir,
				stateDir: join(dir, `state-${index}`),
				provider: {base_url: url, model: 'test-model', api_key_env: null},
				maxSteps: 5,
				deadlineMs: 30_000,
				limiter: share,
				candidate: null,
				taskMarker: `HLAB_TEST_TASK_${index}`,
				port: port2,
				inCandidateCode: new Int32Array(new SharedArrayBuffer(4)),
			}, {transferList: [port2]});
		} finally {
			port1.close();
		}
	};
	// A first task in every thread, so no request of the storm waits on a thread's first HTTP connection.
	const plain = await startEndpoint(t, (arrival, response) => answerTwoTurns(response, arrival.body));
	await Promise.all(Array.from({length: 8}, (_, index) => run(100 + index, plain.url)));

	const storm = stormReply({stormMs: 1500, retryAfterS: 1});
	const endpoint = await startEndpoint(t, storm.reply);
	const limiter = createProviderLimiter({requests_per_minute: 240, max_connections: 4});
	const results = await Promise.all(Array.from({length: 8}, (_, index) => run(index, endpoint.url, limiter)));
	const outcomes = results.map(result => (result !== 'warm' && result.kind === 'outcome' ? result.outcome : null));
	t.same(outcomes.map(outcome => outcome?.status), Array(8).fill('done'), 'every task passes');
	t.equal(pool.threads.length, 4, 'the tasks ran on 4 threads');
	t.ok(storm.refusals.length >= 2, `the storm refused requests (${storm.refusals.length})`);
	const journals = await Promise.all(Array.from({length: 8}, (_, index) => readJsonl(join(dir, `state-${index}`, 'journal.jsonl'))));
	t.same(requestsDuringAdvice(journals, 1000), [], 'no task in any thread started a request while a Retry-After some task had heard still ran');
	t.ok(busiestWindow(endpoint.arrivals, 1000) <= 6, `at most 4 requests a second across threads, plus one for jitter (busiest: ${busiestWindow(endpoint.arrivals, 1000)})`);
	const retries = outcomes.reduce((total, outcome) => total + (outcome?.time?.retries ?? 0), 0);
	t.equal(retries, storm.refusals.length, 'the waits cross the thread boundary in the outcome');
	t.ok(outcomes.some(outcome => (outcome?.time?.limiter_wait_ms ?? 0) > 0));
});
