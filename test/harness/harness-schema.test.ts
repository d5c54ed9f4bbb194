import t from 'tap';
import {builtinAgent, Harness, harnessProblem, placeholdersOf, renderTemplate, type HarnessTool} from '../../harness/index.js';

/** A copy of the built-in harness with `change` applied, for one refusal at a time. */
function variant(change: (harness: Harness) => void): Harness {
	const copy = structuredClone(builtinAgent);
	change(copy);
	return copy;
}

const extraTool: HarnessTool = {name: 'grep', description: 'Search files', parameters: {type: 'object', properties: {}}, implementation: 'builtin:grep'};

t.test('the built-in agent is a valid Harness', async t => {
	t.equal(harnessProblem(builtinAgent), null);
	t.same(Harness.parse(builtinAgent), builtinAgent, 'parsing keeps every field');
});

t.test('the enabled set must name defined tools, once each', async t => {
	t.match(harnessProblem(variant(harness => harness.enabled_tools.push('grep'))), /enabled_tools\.5: grep is enabled but no tool of that name is defined/);
	t.match(harnessProblem(variant(harness => harness.enabled_tools.push('read_file'))), /read_file is enabled twice/);
	t.equal(harnessProblem(variant(harness => harness.tools.push(extraTool))), null, 'a defined tool need not be enabled');
	t.equal(harnessProblem(variant(harness => (harness.enabled_tools = []))), null, 'nothing enabled is a harness too');
});

t.test('tools are defined once, with a function name and an implementation id', async t => {
	t.match(harnessProblem(variant(harness => harness.tools.push({...harness.tools[0]!}))), /tool read_file is defined twice/);
	t.match(harnessProblem(variant(harness => harness.tools.push({...extraTool, name: 'grep files'}))), /tools\.5\.name/);
	t.match(harnessProblem(variant(harness => harness.tools.push({...extraTool, implementation: 'grep'}))), /an implementation id such as builtin:read_file/);
	t.match(harnessProblem(variant(harness => harness.tools.push({...extraTool, parameters: {type: 'string'} as never}))), /tools\.5\.parameters\.type/, 'parameters are an object schema');
	t.match(harnessProblem(variant(harness => harness.tools.push({...extraTool, parameters: {type: 'object', default: () => 1} as never}))), /tools\.5\.parameters/, 'parameters are JSON data');
});

t.test('the task template uses only declared variables, and declares only ones the engine supplies', async t => {
	t.match(harnessProblem(variant(harness => (harness.task_template = {text: 'Task {{task_id}}: {{prompt}}', variables: ['prompt']}))), /\{\{task_id\}\} is used but not declared/);
	t.match(harnessProblem(variant(harness => (harness.task_template = {text: '{{prompt}} in {{repo}}', variables: ['prompt', 'repo' as never]}))), /task_template\.variables\.1/);
	t.match(harnessProblem(variant(harness => (harness.task_template = {text: '{{ prompt }}', variables: ['prompt']}))), /\{\{ prompt \}\} is not a variable name/);
	t.match(harnessProblem(variant(harness => (harness.task_template = {text: '{{prompt}}', variables: ['prompt', 'prompt']}))), /declared twice/);
	t.equal(harnessProblem(variant(harness => (harness.task_template = {text: 'Task {{task_id}}:\n{{prompt}}', variables: ['prompt', 'task_id']}))), null);
});

t.test('unknown fields, a wrong format tag and empty instructions are refused', async t => {
	t.match(harnessProblem({...builtinAgent, temperature: 0}), /temperature/);
	t.match(harnessProblem({...builtinAgent, schema: 'harness-lab/harness@2'}), /schema/);
	t.match(harnessProblem(variant(harness => (harness.instructions.system = ''))), /instructions\.system/);
	t.match(harnessProblem(variant(harness => (harness.limits.max_steps = 0))), /limits\.max_steps/);
	t.match(harnessProblem(variant(harness => (harness.context = {history: 'last-3'} as never))), /context\.history/);
});

t.test('rendering inserts values as they are, never reading them as a template', async t => {
	const template = {text: 'Task {{task_id}}: {{prompt}} ({{prompt}})', variables: ['prompt', 'task_id'] as ('prompt' | 'task_id')[]};
	t.same(placeholdersOf(template.text), ['task_id', 'prompt', 'prompt']);
	t.equal(renderTemplate(template, {prompt: 'fix {{task_id}} and $& too', task_id: 'a1'}), 'Task a1: fix {{task_id}} and $& too (fix {{task_id}} and $& too)');
	t.equal(renderTemplate(builtinAgent.task_template, {prompt: 'exactly this', task_id: 'x'}), 'exactly this', 'the built-in template is the prompt itself');
});
