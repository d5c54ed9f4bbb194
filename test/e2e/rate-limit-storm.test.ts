import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {buildPlan, writePlan} from '../../supervisor/plan/freeze.js';
import {json, startEndpoint} from '../engine/provider-endpoint.js';
import {checkNoLeaks} from '../leak-check.js';
import {attempt, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

/** The one-turn answer that passes answer_from_prompt. */
function finishAt1225(body: any): unknown {
	const call = {id: 'call_0', type: 'function', function: {name: 'done', arguments: JSON.stringify({summary: 'The job finished at 12:25.'})}};
	return {
		id: 'chatcmpl-storm', object: 'chat.completion', model: body.model,
		choices: [{index: 0, finish_reason: 'tool_calls', message: {role: 'assistant', content: 'The job finished at 12:25.', tool_calls: [call]}}],
		usage: {prompt_tokens: 50, completion_tokens: 5, total_tokens: 55},
	};
}

// The advice in milliseconds, as OpenAI sends it beside its whole-second Retry-After: the storm's shape (rounds of
// refusals, the shared pause, the order of the queue) is the same as at a second, in a quarter of the wait.
const advisedMs = 250;
// Half the 30 s the second's advice had: room for a loaded machine's start of each task, and still a bound that a task
// left behind round after round (or drifting to the exponential backoff, 8-16 s by its sixth refusal) does not pass.
const deadlineMs = 15_000;

t.test(`a 429 storm (retry-after-ms: ${advisedMs} with Retry-After: 1, to two requests of every three) at concurrency 8: 16 of 16 pass, each retry after the advice, five runs in a row`, {timeout: 240_000}, async t => {
	const endpoint = await startEndpoint(t, (arrival, response) => {
		if (arrival.index % 3 !== 2) json(response, 429, {error: {message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded'}}, {'retry-after': '1', 'retry-after-ms': String(advisedMs)});
		else json(response, 200, finishAt1225(arrival.body));
	});
	const dir = await scratch(t);
	await writeFile(join(dir, 'policy.json'), JSON.stringify({concurrency: 8}));
	// No limits frozen: the attempt's limiter still holds every task to the provider's advice, in the order they waited.
	const plan = await buildPlan({
		provider: {kind: 'openai-compatible', base_url: endpoint.url, model: 'storm-model', api_key_env: null, reasoning_effort: null},
		selection: 'answer_from_prompt', repeat: 16, maxSteps: 3, deadlineMs,
		policyPath: join(dir, 'policy.json'), controllerPath: null, configPath: null, cwd: dir, responsesPath: null,
	});
	await writePlan(join(dir, 'plan.json'), plan);
	for (let run = 1; run <= 5; run += 1) {
		const {report} = await attempt(join(dir, 'plan.json'), join(dir, `run-${run}`));
		const failed = report.tasks.filter(task => task.status !== 'passed').map(task => `${task.task_id}: ${task.reason} ${task.message ?? ''}`);
		t.same(failed, [], `run ${run}: every task passed (${report.tasks.length - failed.length}/16)`);
		const retries = await retriesOf(join(dir, `run-${run}`), report.tasks.map(task => task.task_id));
		const waits = retries.map(retry => retry.plannedMs);
		// The advice is the wait: the advised milliseconds, plus at most a tenth (the exponential would reach 8-16 s by the sixth refusal).
		t.ok(waits.length > 0 && Math.min(...waits) >= advisedMs && Math.max(...waits) <= advisedMs * 1.1, `run ${run}: ${waits.length} retries, each planned at the advised ${advisedMs} ms (${Math.min(...waits)}-${Math.max(...waits)} ms)`);
		// And it is kept: no task sends its retry before the wait it planned is over (the journal's clock is in whole ms).
		const early = retries.filter(retry => retry.sentAfterMs < retry.plannedMs - 1).map(retry => `${retry.task}: ${retry.sentAfterMs} ms after a planned ${retry.plannedMs}`);
		t.same(early, [], `run ${run}: every retry was sent after its wait`);
	}
});

interface Retry {
	task: string;
	plannedMs: number;
	/** From the refusal's record to the next request's, in the task's journal. */
	sentAfterMs: number;
}

/** Every retry the tasks of an attempt planned and sent, from their journals. */
async function retriesOf(dir: string, ids: string[]): Promise<Retry[]> {
	const retries: Retry[] = [];
	for (const [index, id] of ids.entries()) {
		const text = await readFile(join(dir, 'tasks', `${String(index + 1).padStart(3, '0')}-${id}`, 'journal.jsonl'), 'utf8');
		let refused: {t_ms: number; retry_in_ms: number} | null = null;
		for (const line of text.split('\n').filter(Boolean)) {
			const record = JSON.parse(line) as {type: string; t_ms: number; retry_in_ms?: number | null};
			if (record.type === 'request_error' && typeof record.retry_in_ms === 'number') refused = {t_ms: record.t_ms, retry_in_ms: record.retry_in_ms};
			if (record.type === 'request' && refused !== null) {
				retries.push({task: id, plannedMs: refused.retry_in_ms, sentAfterMs: record.t_ms - refused.t_ms});
				refused = null;
			}
		}
	}
	return retries;
}
