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

t.test('a 429 storm (Retry-After: 1 to two requests of every three) at concurrency 8: 16 of 16 pass, five runs in a row', {timeout: 240_000}, async t => {
	const endpoint = await startEndpoint(t, (arrival, response) => {
		if (arrival.index % 3 !== 2) json(response, 429, {error: {message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded'}}, {'retry-after': '1'});
		else json(response, 200, finishAt1225(arrival.body));
	});
	const dir = await scratch(t);
	await writeFile(join(dir, 'policy.json'), JSON.stringify({concurrency: 8}));
	// No limits frozen: the attempt's limiter still holds every task to the provider's advice, in the order they waited.
	const plan = await buildPlan({
		provider: {kind: 'openai-compatible', base_url: endpoint.url, model: 'storm-model', api_key_env: null, reasoning_effort: null},
		selection: 'answer_from_prompt', repeat: 16, maxSteps: 3, deadlineMs: 30_000,
		policyPath: join(dir, 'policy.json'), controllerPath: null, configPath: null, cwd: dir, responsesPath: null,
	});
	await writePlan(join(dir, 'plan.json'), plan);
	for (let run = 1; run <= 5; run += 1) {
		const {report} = await attempt(join(dir, 'plan.json'), join(dir, `run-${run}`));
		const failed = report.tasks.filter(task => task.status !== 'passed').map(task => `${task.task_id}: ${task.reason} ${task.message ?? ''}`);
		t.same(failed, [], `run ${run}: every task passed (${report.tasks.length - failed.length}/16)`);
		const waits = await retryWaits(join(dir, `run-${run}`), report.tasks.map(task => task.task_id));
		// The advice is the wait: a second, plus at most a tenth (the exponential would reach 8-16 s by the sixth refusal).
		t.ok(waits.length > 0 && Math.max(...waits) <= 1100, `run ${run}: ${waits.length} retries, each planned at the advised second (longest ${Math.max(...waits)} ms)`);
	}
});

/** Every retry wait the tasks of an attempt planned, from their journals. */
async function retryWaits(dir: string, ids: string[]): Promise<number[]> {
	const waits: number[] = [];
	for (const [index, id] of ids.entries()) {
		const text = await readFile(join(dir, 'tasks', `${String(index + 1).padStart(3, '0')}-${id}`, 'journal.jsonl'), 'utf8');
		for (const line of text.split('\n').filter(Boolean)) {
			const record = JSON.parse(line) as {type: string; retry_in_ms?: number | null};
			if (record.type === 'request_error' && typeof record.retry_in_ms === 'number') waits.push(record.retry_in_ms);
		}
	}
	return waits;
}
