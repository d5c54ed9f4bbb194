import {builtinAgent, patchOperationNames} from '../../../harness/index.js';
import type {SearchPolicy} from '../../../supervisor/search/policy-schema.js';

/** A policy that authorizes a small search on the built-in agent, for tests to vary. */
export function testPolicy(): SearchPolicy {
	return {
		schema: 'harness-lab/search-policy@1',
		autonomous_search: 'authorized',
		authorized_tools: [...builtinAgent.enabled_tools],
		allowed_operations: [...patchOperationNames],
		ceilings: {max_steps: 60, deadline_ms: 300_000, system_chars: 4000, tool_description_chars: 600, template_chars: 2000},
		max_retries: 2,
		comparison_k: 2,
		envelope: {
			max_rounds: 3,
			max_candidate_evaluations: 9,
			max_task_attempts: 100,
			max_model_calls: {agent: 5000},
			token_limits: {'tokens(agent)': 10_000_000},
			agent_call_tokens: 4000,
		},
	};
}
