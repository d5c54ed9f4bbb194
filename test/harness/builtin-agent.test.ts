import t from 'tap';
import {z} from 'zod';
import {builtinAgent, builtinTools, DoneArgs, offeredTools, toolParameters} from '../../harness/index.js';
import {systemPrompt, toolDefinitions, toolNames} from '../../engine/index.js';
import {toolImplementations} from '../../engine/tools/implementations.js';
import {bindTools} from '../../engine/tools/toolset.js';

t.test('each built-in tool is offered with the JSON Schema of the zod schema that validates it', async t => {
	t.same(builtinAgent.tools.map(tool => tool.name), builtinTools.map(tool => tool.name));
	for (const [index, tool] of builtinTools.entries()) {
		const {$schema, ...generated} = z.toJSONSchema(tool.args, {io: 'input'});
		t.equal($schema, 'https://json-schema.org/draft/2020-12/schema', 'only the draft tag is dropped');
		t.same(builtinAgent.tools[index]!.parameters, generated, `${tool.name}: the harness holds z.toJSONSchema of its argument schema`);
		t.same(toolParameters(tool.args), generated);
		t.equal(builtinAgent.tools[index]!.implementation, tool.implementation);
		t.equal(toolImplementations.get(tool.implementation)?.args, tool.args, `${tool.name}: the engine validates with that very schema object, not a copy`);
	}
});

t.test('the engine offers exactly the built-in harness\'s definitions, and binds them', async t => {
	t.same(toolDefinitions(), offeredTools(builtinAgent));
	t.same(toolNames, ['read_file', 'write_file', 'list_files', 'run_command', 'done']);
	t.equal(systemPrompt, builtinAgent.instructions.system);
	t.same(bindTools(builtinAgent).definitions, toolDefinitions());
});

t.test('done requires its summary, as its definition says', async t => {
	const done = toolDefinitions().find(tool => tool.function.name === 'done')!;
	t.same(done.function.parameters.required, ['summary']);
	t.notOk(DoneArgs.safeParse({}).success, 'a done call without a summary is refused');
	t.ok(DoneArgs.safeParse({summary: ''}).success);
});

t.test('what the schemas generate is what they accept', async t => {
	const byName = new Map<string, z.ZodType>(builtinTools.map(tool => [tool.name, tool.args]));
	const accepts = (name: string, value: unknown): boolean => byName.get(name)!.safeParse(value).success;
	t.ok(accepts('list_files', {}), 'list_files: path is not required, and not in `required`');
	t.equal(builtinAgent.tools.find(tool => tool.name === 'list_files')!.parameters.required, undefined);
	t.notOk(accepts('read_file', {path: 'a', extra: 1}), 'additionalProperties: false is enforced');
	t.notOk(accepts('run_command', {command: 'ls', timeout_seconds: '5'}), 'types are enforced');
	t.ok(accepts('run_command', {command: 'ls', timeout_seconds: 5, background: true}));
});
