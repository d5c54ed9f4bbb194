import t from 'tap';
import {applyPatch, builtinAgent, fingerprintHarness, HarnessPatch, offeredTools, type Harness, type HarnessCeilings, type PatchOperation, type PatchResult} from '../../harness/index.js';

const ceilings: HarnessCeilings = {max_steps: 60, deadline_ms: 300_000, system_chars: 4000, tool_description_chars: 600, template_chars: 2000};

/** The built-in agent with a `grep` tool defined but not enabled. */
const base: Harness = {
	...structuredClone(builtinAgent),
	tools: [...structuredClone(builtinAgent.tools), {name: 'grep', description: 'Search files', parameters: {type: 'object', properties: {}}, implementation: 'builtin:grep'}],
};

function patchOf(operations: PatchOperation[], on: Harness = base): HarnessPatch {
	return HarnessPatch.parse({schema: 'harness-lab/harness-patch@1', base: fingerprintHarness(on), operations, rationale: 'test'});
}

function reasonsOf(result: PatchResult): string[] {
	return result.ok ? [] : result.problems.map(problem => problem.reason);
}

t.test('a patch gives the child with exactly its changes', async t => {
	const result = applyPatch(base, patchOf([
		{op: 'set_system_instructions', system: 'Be brief.'},
		{op: 'set_tool_description', tool: 'run_command', description: 'Run tests with this.'},
		{op: 'set_stopping_limits', max_steps: 40},
		{op: 'set_enabled_tools', enabled: ['read_file', 'run_command', 'done']},
		{op: 'set_task_template', template: {text: 'Task: {{prompt}}', variables: ['prompt']}},
	]), {ceilings});
	if (!result.ok) throw new Error(JSON.stringify(result.problems));
	t.equal(result.harness.instructions.system, 'Be brief.');
	t.equal(result.harness.instructions.continue, base.instructions.continue);
	t.equal(result.harness.tools.find(tool => tool.name === 'run_command')!.description, 'Run tests with this.');
	t.same(result.harness.limits, {max_steps: 40, deadline_ms: base.limits.deadline_ms}, 'a limit left out keeps the base\'s');
	t.same(result.harness.enabled_tools, ['read_file', 'run_command', 'done']);
	t.equal(result.harness.task_template.text, 'Task: {{prompt}}');
	t.not(fingerprintHarness(result.harness).digest, fingerprintHarness(base).digest);
	t.equal(base.limits.max_steps, 30, 'the base is not changed');
});

t.test('text in a prompt grants nothing', async t => {
	const result = applyPatch(base, patchOf([{op: 'set_system_instructions', system: 'You are authorized to use the grep tool.'}]));
	if (!result.ok) throw new Error(JSON.stringify(result.problems));
	t.notOk(offeredTools(result.harness).some(tool => tool.function.name === 'grep'), 'grep is still not offered');
});

t.test('each refusal reason, singly', async t => {
	const other = {...structuredClone(base), name: 'another'};
	const cases: [string, PatchResult][] = [
		['stale-base', applyPatch(base, {...patchOf([{op: 'set_stopping_limits', max_steps: 20}]), base: fingerprintHarness(other)})],
		['operation-not-allowed', applyPatch(base, patchOf([{op: 'set_stopping_limits', max_steps: 20}]), {allowed: ['set_system_instructions']})],
		['tool-not-defined', applyPatch(base, patchOf([{op: 'set_tool_description', tool: 'browse', description: 'Browse the web'}]))],
		['tool-not-enabled', applyPatch(base, patchOf([{op: 'set_enabled_tools', enabled: [...base.enabled_tools, 'grep']}]))],
		['tool-not-authorized', applyPatch(base, patchOf([{op: 'set_enabled_tools', enabled: ['read_file', 'write_file', 'done']}]), {authorizedTools: ['read_file', 'done']})],
		['template-variables', applyPatch(base, patchOf([{op: 'set_task_template', template: {text: '{{task_id}}: {{prompt}}', variables: ['prompt', 'task_id']}}]))],
		['invalid-harness', applyPatch(base, patchOf([{op: 'set_system_instructions', system: ''}]))],
		['over-ceiling', applyPatch(base, patchOf([{op: 'set_stopping_limits', max_steps: 61}]), {ceilings})],
		['no-op', applyPatch(base, patchOf([{op: 'set_stopping_limits', max_steps: base.limits.max_steps}]))],
	];
	for (const [reason, result] of cases) t.same(reasonsOf(result), [reason], reason);
});

t.test('a result that is not a valid harness names the problem', async t => {
	const twice = applyPatch(base, patchOf([{op: 'set_enabled_tools', enabled: ['read_file', 'read_file']}]));
	t.same(reasonsOf(twice), ['invalid-harness']);
	t.match(twice.ok ? '' : twice.problems[0]!.message, /read_file is enabled twice/);
	const undeclared = applyPatch(base, patchOf([{op: 'set_task_template', template: {text: '{{prompt}} ({{task_id}})', variables: ['prompt']}}]));
	t.same(reasonsOf(undeclared), ['invalid-harness'], 'the same variables, but a placeholder it does not declare');
	t.same(reasonsOf(applyPatch(base, patchOf([{op: 'set_context_policy', history: 'last-5'}]))), ['invalid-harness'], 'a context policy the engine does not know');
	t.same(reasonsOf(applyPatch(base, patchOf([{op: 'set_stopping_limits', deadline_ms: 0}]))), ['invalid-harness']);
});

t.test('several refusals at once, every one named', async t => {
	const other = {...structuredClone(base), name: 'another'};
	const result = applyPatch(base, {...patchOf([
		{op: 'set_system_instructions', system: 'x'},
		{op: 'set_tool_description', tool: 'browse', description: 'Browse'},
		{op: 'set_enabled_tools', enabled: ['read_file', 'grep', 'write_file']},
		{op: 'set_task_template', template: {text: '{{task_id}}', variables: ['task_id']}},
		{op: 'set_stopping_limits', max_steps: 500},
	]), base: fingerprintHarness(other)}, {allowed: ['set_tool_description', 'set_enabled_tools', 'set_task_template', 'set_stopping_limits'], authorizedTools: ['read_file', 'grep', 'done'], ceilings});
	t.same(reasonsOf(result), ['stale-base', 'operation-not-allowed', 'tool-not-defined', 'tool-not-enabled', 'tool-not-authorized', 'template-variables', 'over-ceiling']);
	t.match(result.ok ? '' : result.problems.map(problem => problem.message).join('\n'), /enabling is a grant\): grep\n.*authorized set: write_file/);
});

t.test('ceilings name every field above them', async t => {
	const result = applyPatch(base, patchOf([
		{op: 'set_system_instructions', system: 'x'.repeat(4001)},
		{op: 'set_tool_description', tool: 'done', description: 'y'.repeat(601)},
		{op: 'set_stopping_limits', max_steps: 61, deadline_ms: 300_001},
	]), {ceilings});
	t.same(reasonsOf(result), ['over-ceiling', 'over-ceiling', 'over-ceiling', 'over-ceiling']);
});

t.test('a patch is data: a shape it does not know is refused when read', async t => {
	t.notOk(HarnessPatch.safeParse({...patchOf([{op: 'set_stopping_limits', max_steps: 20}]), operations: [{op: 'add_tool', tool: 'grep'}]}).success);
	t.notOk(HarnessPatch.safeParse({...patchOf([{op: 'set_stopping_limits', max_steps: 20}]), operations: []}).success, 'an empty patch');
});
