import {applyPatch, fingerprintHarness, fingerprintPatch, patchSchemaVersion, type Harness, type HarnessPatch, type PatchOperation, type PatchOperationName} from '../../harness/index.js';
import type {MutationProvider} from './providers.js';
import type {MutationRequest} from './search-record.js';

/** One idea of the scripted provider: the operations it writes for a base, with why. */
interface Idea {
	name: string;
	rationale: string;
	operations(base: Harness): PatchOperation[];
}

const listOnce = 'One call lists every file under the directory, so call it at most once.';

/** Its ideas, tried in this order; each is offered once per base unless it was refused, gives a known harness, or is not allowed. */
const ideas: Idea[] = [
	{
		name: 'list-once',
		rationale: 'listing the workspace again repeats what the first listing showed',
		operations: base => {
			const current = base.tools.find(tool => tool.name === 'list_files')?.description ?? 'List files.';
			// Written again on a base that has it: the planner then records the no-op refusal and asks for the next idea.
			return [{op: 'set_tool_description', tool: 'list_files', description: current.includes(listOnce) ? current : `${current} ${listOnce}`}];
		},
	},
	{
		name: 'more-steps',
		rationale: 'executions end at the step limit; a few more steps let them finish',
		operations: base => [{op: 'set_stopping_limits', max_steps: base.limits.max_steps + 4}],
	},
	{
		name: 'work-directly',
		rationale: 'start from the files the task names rather than exploring',
		operations: base => [{op: 'set_system_instructions', system: `${base.instructions.system}\nStart from the files the task names; explore only when they are not enough.`}],
	},
	{
		name: 'no-listing',
		rationale: 'a listing tool invites exploration the tasks do not need',
		operations: base => [{op: 'set_enabled_tools', enabled: base.enabled_tools.filter(name => name !== 'list_files')}],
	},
];

/**
 * The deterministic mutation provider of the demo and tests: a fixed list of ideas, the first that the request
 * allows and that would give a new harness. It reads no feedback, so its choices depend only on the base.
 */
export function scriptedMutationProvider(): MutationProvider {
	return {
		binding: {kind: 'scripted-ideas', version: 1, config: {ideas: ideas.map(idea => idea.name)}},
		callsModel: false,
		operations: ['set_tool_description', 'set_stopping_limits', 'set_system_instructions', 'set_enabled_tools'] satisfies PatchOperationName[],
		async mutate(request: MutationRequest, base: Harness): Promise<HarnessPatch | null> {
			for (const idea of ideas) {
				const patch = patchOf(idea, request, base);
				if (patch !== null) return patch;
			}
			return null;
		},
	};
}

function patchOf(idea: Idea, request: MutationRequest, base: Harness): HarnessPatch | null {
	const operations = idea.operations(base);
	if (!operations.every(operation => request.allowed_operations.includes(operation.op))) return null;
	const patch: HarnessPatch = {schema: patchSchemaVersion, base: request.base, operations, rationale: idea.rationale};
	if (request.refused.includes(fingerprintPatch(patch))) return null;
	// Without bounds: a patch the policy refuses is still proposed, and the planner records the refusal.
	const child = applyPatch(base, patch);
	if (child.ok && request.existing.includes(fingerprintHarness(child.harness).digest)) return null;
	return patch;
}
