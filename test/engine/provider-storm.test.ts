import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {createProviderLimiter, type ExecutionOutcome, type ProviderTime} from '../../engine/index.js';
import {answerTwoTurns, busiestWindow, requestsDuringAdvice, runTask, runTaskRecorded, startEndpoint, stormReply} from './provider-endpoint.js';

checkNoLeaks(t);

const sum = (outcomes: ExecutionOutcome[], field: keyof ProviderTime): number => outcomes.reduce((total, outcome) => total + outcome.time![field], 0);

t.test('a 429 storm at concurrency 8: one shared limiter backs every task off together, and every task still passes', async t => {
	// A first task, so no request of the storm waits on this thread's first HTTP connection.
	const plain = await startEndpoint(t, (arrival, response) => answerTwoTurns(response, arrival.body));
	await runTask(t, plain.url);
	const storm = stormReply({stormMs: 1500, retryAfterS: 1});
	const endpoint = await startEndpoint(t, storm.reply);
	// 240 requests a minute is 4 a second: no window of one second may see more than 5 starts.
	const limiter = createProviderLimiter({requests_per_minute: 240, max_connections: 4});
	const deadlineMs = 30_000;
	const runs = await Promise.all(Array.from({length: 8}, (_, index) => runTaskRecorded(t, endpoint.url, {limiter, deadlineMs, id: `storm-${index}`})));
	const outcomes = runs.map(run => run.outcome);

	t.same(outcomes.map(outcome => [outcome.status, outcome.reason]), Array(8).fill(['done', null]), 'every task passes');
	t.ok(outcomes.every(outcome => outcome.time!.wall_ms < deadlineMs), 'within its deadline');
	t.ok(storm.refusals.length >= 2, `the storm refused requests (${storm.refusals.length})`);
	t.same(requestsDuringAdvice(runs.map(run => run.journal), 1000), [], 'no task started a request while a Retry-After some task had heard still ran');
	t.ok(busiestWindow(endpoint.arrivals, 1000) <= 6, `at most 4 requests a second, plus one for arrival jitter (busiest second: ${busiestWindow(endpoint.arrivals, 1000)})`);

	t.equal(sum(outcomes, 'retries'), storm.refusals.length, 'every refusal was retried, and counted as a retry');
	t.equal(sum(outcomes, 'requests'), endpoint.arrivals.length, 'every request is counted once');
	for (const [index, outcome] of outcomes.entries()) {
		const time = outcome.time!;
		t.ok(time.retry_wait_ms >= time.retries * 1000 - 1, `task ${index}: each retry waited at least the advised second (${time.retries} retries, ${time.retry_wait_ms} ms)`);
		t.ok(Math.abs(time.working_ms - (time.wall_ms - time.limiter_wait_ms - time.retry_wait_ms)) < 0.5, `task ${index}: working time is wall time minus the waits`);
	}
	t.ok(sum(outcomes, 'limiter_wait_ms') > 1000, `the tasks waited on the shared limiter (${Math.round(sum(outcomes, 'limiter_wait_ms'))} ms)`);
	t.ok(outcomes.every(outcome => outcome.infrastructure === false), 'no task is an infrastructure failure');
});
