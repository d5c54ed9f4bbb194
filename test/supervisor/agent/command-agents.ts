import {chmod, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {Test} from 'tap';
import {buildPlan, writePlan} from '../../../supervisor/plan/freeze.js';
import type {TotalBudget} from '../../../supervisor/plan/plan-schema.js';

/**
 * What every test agent starts with: `ask(body)` posts one chat completion to the endpoint the supervisor gave it
 * (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL) and returns the status and the parsed answer.
 */
const prelude = `#!/usr/bin/env node
const base = process.env.OPENAI_BASE_URL;
async function ask(body) {
	const response = await fetch(base + '/chat/completions', {method: 'POST', headers: {'content-type': 'application/json', authorization: 'Bearer ' + process.env.OPENAI_API_KEY}, body: JSON.stringify({model: process.env.OPENAI_MODEL, ...body})});
	return {status: response.status, json: await response.json().catch(() => null)};
}
const done = {type: 'function', function: {name: 'done', description: 'finish', parameters: {type: 'object', properties: {summary: {type: 'string'}}, required: ['summary']}}};
/** The scripted provider's reference answers the task by calling done; its summary is the answer. */
async function solve(prompt, extra = {}) {
	const {status, json} = await ask({messages: [{role: 'user', content: prompt}], tools: [done], ...extra});
	if (status !== 200) return {status, json, answer: null};
	const call = json.choices[0].message.tool_calls?.[0];
	return {status, json, answer: call ? JSON.parse(call.function.arguments).summary : json.choices[0].message.content};
}
const prompt = process.argv[process.argv.length - 1];
`;

export interface AgentFiles {
	spec: string;
	script: string;
}

/** Writes a command agent (a node script beside its spec) into `dir`; `body` runs after the prelude. */
export async function writeCommandAgent(dir: string, name: string, body: string, spec: {task_input?: 'argument' | 'stdin'; env?: string[]} = {}): Promise<AgentFiles> {
	const script = join(dir, `${name}.mjs`);
	await writeFile(script, `${prelude}\n${body}\n`);
	await chmod(script, 0o755);
	const specPath = join(dir, `${name}.json`);
	await writeFile(specPath, JSON.stringify({schema: 'harness-lab/agent@1', adapter: 'command', executable: `${name}.mjs`, task_input: spec.task_input ?? 'argument', env: spec.env ?? []}));
	return {spec: specPath, script};
}

/** Freezes a scripted-provider plan of `tasks` in `dir` with a task deadline of `deadlineMs`. */
export async function freezeAgentPlan(t: Test, dir: string, options: {tasks?: string; deadlineMs?: number; sandbox?: boolean; name?: string; memoryLimitBytes?: number; totalBudget?: TotalBudget} = {}): Promise<string> {
	const policyPath = join(dir, 'policy.json');
	await writeFile(policyPath, JSON.stringify({concurrency: 1}));
	const plan = await buildPlan({
		provider: {kind: 'scripted', model: 'reference'}, selection: options.tasks ?? 'answer_from_prompt', maxSteps: 12, deadlineMs: options.deadlineMs ?? 30_000,
		policyPath, controllerPath: null, configPath: null, cwd: dir, responsesPath: null, sandbox: options.sandbox ?? false,
		...(options.memoryLimitBytes === undefined ? {} : {memoryLimitBytes: options.memoryLimitBytes}),
		...(options.totalBudget === undefined ? {} : {totalBudget: options.totalBudget}),
	});
	const path = join(dir, `${options.name ?? 'plan'}.json`);
	await writePlan(path, plan);
	t.comment(`plan ${path}`);
	return path;
}

/** The agent that solves answer_from_prompt: one request, and the answer on stdout. */
export const solvingAgent = `const {answer, status} = await solve(prompt);
if (answer === null) { console.error('the provider answered ' + status); process.exit(1); }
console.log(answer);`;
