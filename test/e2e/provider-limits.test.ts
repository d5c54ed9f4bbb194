import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {Plan} from '../../supervisor/plan/plan-schema.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {answerTwoTurns, startEndpoint, type Arrival} from '../engine/provider-endpoint.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {scratch} from './experiment-fixture.js';

checkNoLeaks(t);

/** An OpenAI-compatible endpoint that answers after `delayMs` and remembers the most requests it had in flight at once. */
async function slowEndpoint(t: Test, delayMs: number): Promise<{url: string; mostInFlight: () => number; arrivals: Arrival[]}> {
	let inFlight = 0;
	let most = 0;
	const endpoint = await startEndpoint(t, (arrival, response) => {
		inFlight += 1;
		most = Math.max(most, inFlight);
		setTimeout(() => {
			inFlight -= 1;
			answerTwoTurns(response, arrival.body);
		}, delayMs);
	});
	return {url: endpoint.url, mostInFlight: () => most, arrivals: endpoint.arrivals};
}

/** Freezes six one-turn trials at concurrency 6 against `url`, with the given extra flags, and runs the baseline. */
async function runWith(t: Test, url: string, flags: string[]): Promise<{plan: Plan; report: Report}> {
	const dir = await scratch(t);
	await writeFile(join(dir, 'policy.json'), JSON.stringify({concurrency: 6}));
	const frozen = await hlab(['eval', '--provider', 'openai-compatible', '--base-url', url, '--model', 'stub', '--api-key-env', '',
		'--task', 'answer_from_prompt', '--repeat', '6', '--experiment-policy', 'policy.json', ...flags, '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	const ran = await hlab(['eval', '--plan', 'plan.json', '--artifacts', 'baseline'], {cwd: dir, timeoutMs: 180_000});
	t.not(ran.record.exit_code, 2, `the attempt ran: ${ran.stderr}`);
	return {
		plan: Plan.parse(JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8'))),
		report: Report.parse(JSON.parse(await readFile(join(dir, 'baseline', 'report.json'), 'utf8'))),
	};
}

t.test('frozen provider limits hold for the whole attempt, and the waits are recorded per task', async t => {
	const endpoint = await slowEndpoint(t, 150);
	const {plan, report} = await runWith(t, endpoint.url, ['--max-connections', '1']);
	t.same(plan.provider_limits, {max_connections: 1, requests_per_minute: null, tokens_per_minute: null, request_timeout_ms: null});
	t.equal(endpoint.mostInFlight(), 1, 'six tasks in flight, one request at a time at the provider');
	const times = report.tasks.map(task => task.outcome?.time ?? null);
	t.ok(times.every(time => time !== null && time.requests === 2), 'each task made its two requests');
	t.ok(times.some(time => time!.limiter_wait_ms > 100), 'tasks waited their turn, and the wait is on record');
	t.ok(times.every(time => time!.working_ms <= time!.wall_ms - time!.limiter_wait_ms + 1));
});

t.test('without limits the same attempt drives the provider with several requests at once (so the test above can fail)', async t => {
	const endpoint = await slowEndpoint(t, 150);
	const {plan} = await runWith(t, endpoint.url, []);
	t.equal(plan.provider_limits, undefined);
	t.ok(endpoint.mostInFlight() > 1, `at most ${endpoint.mostInFlight()} in flight`);
	t.same(new Set(endpoint.arrivals.map(arrival => arrival.authorization)), new Set([null]), "--api-key-env '' sends no key: no Authorization header at all");
});

t.test('a limit flag that is not a positive whole number is refused in one line', async t => {
	const dir = await scratch(t);
	const refused = await hlab(['eval', '--task', 'answer_from_prompt', '--max-connections', 'many', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(refused.record.exit_code, 2);
	t.match(refused.stderr, /^hlab: .*--max-connections/);
	t.equal(refused.stderr.trim().split('\n').length, 1);
});
