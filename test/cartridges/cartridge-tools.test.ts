import {mkdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {cartridgeToolImplementations, loadCartridge, type LoadedCartridge} from '../../cartridges/index.js';
import {resolveProvider, runAgent, type ExecutionOutcome} from '../../engine/index.js';
import {startScriptedServer, type ScriptTurn} from '../../scripted/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {copyCartridge, examplesDir} from './cartridge-copy.js';

checkNoLeaks(t);

const goal = 'Publish report.json for revenue 120 and cost 80, then finish.';
const call = (name: string, args: object): ScriptTurn => ({content: null, tool_calls: [{type: 'function', function: {name, arguments: JSON.stringify(args)}}]});

async function load(dir: string): Promise<LoadedCartridge> {
	const result = await loadCartridge(dir);
	if (!result.ok) throw new Error(result.problems.join('\n'));
	return result.cartridge;
}

/** Runs the cartridge's harness on its goal with a scripted conversation; returns the outcome and the tool results. */
async function play(t: Test, cartridge: LoadedCartridge, turns: ScriptTurn[]): Promise<{outcome: ExecutionOutcome; workspace: string; results: {content: string; is_error: boolean}[]}> {
	const root = await tempDir(t);
	const workspace = join(root, 'workspace');
	await mkdir(workspace);
	const server = await startScriptedServer({tasks: [], conversations: [{id: 'case', prompt: goal, turns}]});
	try {
		const outcome = await runAgent({
			harness: cartridge.harness,
			task: {id: 'case', prompt: goal},
			workspace,
			stateDir: join(root, 'state'),
			provider: resolveProvider({kind: 'scripted'}, server.url),
			plugins: [],
			toolImplementations: await cartridgeToolImplementations(cartridge, {project_root: workspace, case_id: 'case'}),
		});
		const journal = (await readFile(join(root, 'state', 'journal.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as {type: string; content?: string; is_error?: boolean});
		return {outcome, workspace, results: journal.filter(record => record.type === 'tool_result').map(record => ({content: record.content!, is_error: record.is_error!}))};
	} finally {
		await server.close();
	}
}

const reportAgent = await load(join(examplesDir, 'report_agent.cartridge'));

t.test('a cartridge tool runs in the engine with its resources; the model sees its JSON answer', async t => {
	const {outcome, workspace, results} = await play(t, reportAgent, [call('publish_report', {revenue: 120, cost: 80}), call('done', {summary: 'published'})]);
	t.equal(outcome.status, 'done');
	t.same(results, [{content: '{"written":"report.json","profit":40}', is_error: false}]);
	t.same(JSON.parse(await readFile(join(workspace, 'report.json'), 'utf8')), {revenue: 120, cost: 80, profit: 40}, 'the project_dir resource is the case workspace');
});

t.test('arguments are validated by the tool.yaml schema the model is shown: a bad call is an error the model can correct', async t => {
	const {outcome, results} = await play(t, reportAgent, [
		call('publish_report', {revenue: 'a lot', cost: 80}),
		call('publish_report', {revenue: 120, cost: 80, note: 'extra'}),
		call('publish_report', {revenue: 120, cost: 80}),
		call('done', {summary: 'published'}),
	]);
	t.equal(outcome.status, 'done');
	t.equal(results.length, 3);
	t.match(results[0], {is_error: true, content: /invalid arguments for publish_report: revenue/});
	t.match(results[1], {is_error: true, content: /invalid arguments for publish_report/});
	t.match(results[2], {is_error: false});
});

t.test('a tool that throws answers the model an error; the run goes on', async t => {
	const throwing = await load(await copyCartridge(t, 'report_agent', {
		'tools/publish_report/execute.ts': 'export function execute(): never {\n\tthrow new Error(\'the disk is full\');\n}\n',
	}));
	const {outcome, results} = await play(t, throwing, [call('publish_report', {revenue: 1, cost: 1}), call('done', {summary: 'gave up'})]);
	t.equal(outcome.status, 'done');
	t.same(results, [{content: 'error: publish_report failed: the disk is full', is_error: true}]);
});

t.test('the engine refuses an implementation whose schema is not the one the harness shows', async t => {
	const other = structuredClone(reportAgent);
	const publish = other.harness.tools.find(tool => tool.name === 'publish_report')!;
	publish.parameters = {type: 'object', properties: {revenue: {type: 'number'}}};
	const {outcome} = await play(t, other, [call('done', {summary: 'x'})]);
	t.equal(outcome.status, 'failed');
	t.equal(outcome.reason, 'init');
	t.match(outcome.message, /its parameters are not the argument schema of cartridge:publish_report/);
});

t.test('without the implementations, the cartridge harness cannot run: missing_tool', async t => {
	const root = await tempDir(t);
	await mkdir(join(root, 'w'));
	const outcome = await runAgent({harness: reportAgent.harness, task: {id: 'case', prompt: goal}, workspace: join(root, 'w'), stateDir: join(root, 's'), provider: {base_url: 'http://127.0.0.1:9/v1', model: 'm', api_key_env: null}, plugins: []});
	t.equal(outcome.reason, 'missing_tool');
});

t.test('a script that runs out fails the run with script_exhausted named in its message', async t => {
	const {outcome} = await play(t, reportAgent, [call('publish_report', {revenue: 120, cost: 80})]);
	t.equal(outcome.status, 'failed');
	t.equal(outcome.reason, 'provider');
	t.match(outcome.message, /script_exhausted: the response script of case has 1 turn; the run asks for turn 2/);
});
