import {mkdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {builtinAgent, type Harness} from '../../harness/index.js';
import {writeJson} from '../../files/write-json.js';
import {scriptedMutationProvider} from './scripted-mutation-provider.js';
import {scriptedSearchProvider} from './scripted-search-provider.js';
import type {SearchPolicy} from './policy-schema.js';
import {replaySearch} from './replay-search.js';
import {runSearch} from './run-search.js';
import {SearchReport} from './search-report.js';

/** The demo's pinned suite: built-in tasks that the responsive model solves in 1 to 12 requests. */
export const demoSuite = ['answer_from_prompt', 'implement_function', 'multi_file_fix', 'test_failure_fix', 'json_config_migration', 'sales_report'];

/** The demo's root: the built-in agent with a tight step limit, so that wasted requests cost tasks. */
export const demoRoot: Harness = {...builtinAgent, name: 'builtin-coding-agent (8 steps)', limits: {max_steps: 8, deadline_ms: 60_000}};

/** The demo's policy: three rounds on three seeds, every limit declared. */
export const demoPolicy: SearchPolicy = {
	schema: 'harness-lab/search-policy@1',
	autonomous_search: 'authorized',
	authorized_tools: [...builtinAgent.enabled_tools],
	allowed_operations: ['set_system_instructions', 'set_tool_description', 'set_enabled_tools', 'set_stopping_limits'],
	ceilings: {max_steps: 16, deadline_ms: 120_000, system_chars: 4000, tool_description_chars: 600, template_chars: 2000},
	max_retries: 2,
	comparison_k: 2,
	envelope: {
		max_rounds: 3,
		max_candidate_evaluations: 9,
		max_task_attempts: 54,
		max_model_calls: {agent: 54 * 16},
		token_limits: {'tokens(agent)': 54 * 16 * 20_000},
		agent_call_tokens: 20_000,
	},
};

/**
 * `hlab search demo OUT`: three rounds on the pinned suite with the scripted providers and the responsive
 * scripted model, printing every decision, comparison and unit of spend; then the planning is replayed from the
 * report. Everything is offline.
 */
export async function runSearchDemo(out: string, say: (line: string) => void): Promise<{report: SearchReport; replayed: number}> {
	await mkdir(out, {recursive: true});
	const policyPath = join(out, 'policy.json');
	const rootPath = join(out, 'root-harness.json');
	await writeJson(policyPath, demoPolicy, {exclusive: true});
	await writeJson(rootPath, demoRoot, {exclusive: true});
	const dir = join(out, 'search');
	say(`harness search demo: policy ${policyPath}, root ${rootPath}, suite ${demoSuite.join(', ')}, seeds 1-3`);
	const planner = {search: scriptedSearchProvider(), mutation: scriptedMutationProvider(), policy: demoPolicy};
	const report = await runSearch({planner, root: demoRoot, rootName: rootPath, seeds: [1, 2, 3], dir, setup: {suite: demoSuite, provider: {kind: 'scripted', model: 'responsive'}}, say});
	say(`report: ${join(dir, 'search-report.json')}`);
	const recorded = SearchReport.parse(JSON.parse(await readFile(join(dir, 'search-report.json'), 'utf8')));
	const replayed = await replaySearch(recorded, {search: scriptedSearchProvider(), mutation: scriptedMutationProvider(), policy: recorded.policy}, dir);
	say(`replay: ${replayed} plan(s) re-planned from their recorded contexts, every one the same (no model called, nothing run)`);
	return {report, replayed};
}
