import {cp} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {loadCartridge, type LoadedCartridge} from '../../cartridges/index.js';
import {offeredTools, parseHarness} from '../../harness/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {brokenPublishReport, copyCartridge, examplesDir} from './cartridge-copy.js';

checkNoLeaks(t);

async function load(dir: string): Promise<LoadedCartridge> {
	const result = await loadCartridge(dir);
	if (!result.ok) throw new Error(result.problems.join('\n'));
	return result.cartridge;
}

const reportAgent = await load(join(examplesDir, 'report_agent.cartridge'));

t.test('a cartridge loads into a Harness: its prompt, its tools with the tool.yaml schema, the engine\'s done tool, its contract', async t => {
	const {harness} = reportAgent;
	t.ok(parseHarness(harness).ok, 'the harness is valid');
	t.equal(harness.name, 'report_agent');
	t.match(harness.instructions.system, /You publish a small financial report/);
	t.same(harness.enabled_tools, ['publish_report', 'done']);
	t.same(harness.limits, {max_steps: 4, deadline_ms: 120_000});
	const publish = harness.tools.find(tool => tool.name === 'publish_report')!;
	t.same(publish.parameters, {type: 'object', properties: {revenue: {type: 'integer'}, cost: {type: 'integer'}}, required: ['revenue', 'cost'], additionalProperties: false}, 'the short form becomes a whole schema');
	t.match(publish.implementation, /^cartridge:publish_report\.[0-9a-f]{64}$/);
	t.equal(harness.tools.find(tool => tool.name === 'done')!.implementation, 'builtin:done');
	t.same(offeredTools(harness).map(tool => tool.function.name), ['publish_report', 'done']);
	t.same(reportAgent.runtime, {use_native_tools: true}, 'runtime.yaml is loaded beside the harness');
	t.same(reportAgent.graders[0]!.exports, [{name: 'eval_completed', marks: ['required'], asks_model: false}, {name: 'eval_profit_is_correct', marks: ['required'], asks_model: false}], 'graders are listed with their marks');
	t.same(reportAgent.collectors[0]!.exports, [{name: 'collect_report', marks: [], asks_model: false}]);
	t.same(reportAgent.cases.map(entry => entry.id), ['profit_math']);
});

t.test('the fingerprint moves with the prompt, tool code, a resource, the enabled set and the contract; not with runtime.yaml, cases or graders', async t => {
	const fingerprint = reportAgent.fingerprint.digest;
	const moved = {
		'prompt': {'prompts/system.md': 'Another prompt.\n'},
		'tool code': {'tools/publish_report/execute.ts': brokenPublishReport},
		'tool schema': {'tools/publish_report/tool.yaml': 'name: publish_report\ndescription: Write report.json.\nparameters:\n  revenue: {type: number}\n  cost: {type: integer}\nrequires: [project_dir]\n'},
		'a required resource': {'resources/project_dir.ts': 'export function build(runtime: {project_root: string}): string {\n\treturn `${runtime.project_root}/`;\n}\n'},
		'enabled set': {'config.yaml': 'max_steps: 4\ndone_tool: done\ntools: [done]\n'},
		'contract': {'config.yaml': 'max_steps: 5\ndone_tool: done\n'},
	};
	for (const [what, changes] of Object.entries(moved)) {
		const changed = await load(await copyCartridge(t, 'report_agent', changes));
		t.not(changed.fingerprint.digest, fingerprint, `${what} moves it`);
	}
	const kept = {
		'runtime.yaml': {'runtime.yaml': 'use_native_tools: false\nprovider_hint: small\n'},
		'a case': {'evals/cases/profit_math.json': JSON.stringify({id: 'profit_math', task: {goal: 'Other goal.'}, expected: {profit: 41}})},
		'a grader': {'evals/eval_correctness.ts': "import {grader} from 'harness-lab/sdk';\nexport const eval_x = grader(['required'], () => true);\n"},
	};
	for (const [what, changes] of Object.entries(kept)) {
		const changed = await load(await copyCartridge(t, 'report_agent', changes));
		t.equal(changed.fingerprint.digest, fingerprint, `${what} leaves it`);
		t.not(JSON.stringify(changed.digests), JSON.stringify(reportAgent.digests), `${what} moves its own digest`);
	}
	const moved_folder = join(await tempDir(t), 'elsewhere.cartridge');
	await cp(join(examplesDir, 'report_agent.cartridge'), moved_folder, {recursive: true});
	const elsewhere = await load(moved_folder);
	t.equal(elsewhere.fingerprint.digest, fingerprint, 'moving the folder leaves it');
	t.same(elsewhere.digests, reportAgent.digests, 'and every digest');
});

t.test('a broken cartridge gets every problem listed, not only the first', async t => {
	const dir = await copyCartridge(t, 'report_agent', {
		'cartridge.json': JSON.stringify({name: 'report agent', schema_version: 1}),
		'config.yaml': 'max_steps: 0\ndone_tool: done\nuse_native_tools: true\n',
		'runtime.yaml': 'use_native_tools: [\n',
		'tools/publish_report/tool.yaml': 'name: publish_report\nparameters: {revenue: {type: integer}}\nrequires: [project_dir, clock]\n',
		'tools/shout/tool.yaml': 'name: shout\ndescription: Shout.\n',
		'tools/shout/execute.ts': "import lodash from 'lodash';\nexport const execute = () => lodash;\n",
		'evals/cases/profit_math.json': JSON.stringify({id: 'other_id', task: {goal: 'x', secret: 1}}),
		'evals/eval_correctness.ts': 'export const helper = 1;\n',
	});
	const result = await loadCartridge(dir);
	t.notOk(result.ok);
	if (result.ok) return;
	const text = result.problems.join('\n');
	for (const expected of [
		/cartridge\.json: name: letters, digits/,
		/cartridge\.json: schema_version: schema_version must be 2/,
		/config\.yaml: max_steps: Too small/,
		/config\.yaml: .*use_native_tools/,
		/runtime\.yaml: not valid YAML/,
		/tools\/publish_report\/tool\.yaml: description:/,
		/tools\/shout\/execute\.ts: cannot compile: .*import 'lodash' is refused/,
		/evals\/cases\/profit_math\.json: task: Unrecognized key/,
		/evals\/eval_correctness\.ts: exports no grader/,
	]) t.match(text, expected);
	t.ok(result.problems.length >= 9, `${result.problems.length} problems listed`);
});

t.test('names that lead nowhere are problems: a required resource, an enabled tool, a tool folder named as the done tool', async t => {
	const dir = await copyCartridge(t, 'report_agent', {
		'tools/publish_report/tool.yaml': 'name: publish_report\ndescription: d\nrequires: [clock]\n',
		'config.yaml': 'max_steps: 4\ntools: [publish_report, ghost, done]\n',
		'tools/done/tool.yaml': 'name: done\ndescription: d\n',
		'tools/done/execute.ts': 'export const execute = () => "done";\n',
		'evals/cases/profit_math.json': JSON.stringify({id: 'profit_math', task: {goal: 'x'}}),
	});
	const result = await loadCartridge(dir);
	t.notOk(result.ok);
	if (result.ok) return;
	const text = result.problems.join('\n');
	t.match(text, /requires clock, but there is no resources\/clock\.ts/);
	t.match(text, /config\.yaml: tools: ghost is not a tool of this cartridge/);
	t.match(text, /tools\/done: done is the done tool/);
});

t.test('a folder that is not a cartridge, and one without cases or graders', async t => {
	const missing = await loadCartridge(join(await tempDir(t), 'nothing'));
	t.notOk(missing.ok);
	t.match(!missing.ok && missing.problems.join('\n'), /not a cartridge folder/);
	const empty = await loadCartridge(await copyCartridge(t, 'report_agent', {'evals': null}));
	t.notOk(empty.ok);
	t.match(!empty.ok && empty.problems.join('\n'), /no grader[\s\S]*no case/);
});
