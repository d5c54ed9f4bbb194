import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

/** What each command resolved the flags to: the agent run's JSON, and the plan eval froze. */
async function resolvedBy(dir: string, name: string, flags: string[]): Promise<{agent: unknown; plan: unknown; agentExit: number | null}> {
	// An empty key variable makes an openai-compatible run fail at once (auth) without any network call.
	const env = {OPENAI_API_KEY: ''};
	const agent = await hlab(['agent', '--task', 'answer_from_prompt', '--workspace', join(dir, `${name}-ws`), '--state-dir', join(dir, `${name}-state`), '--json', ...flags], {env});
	const frozen = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', join(dir, `${name}-plan.json`), ...flags], {env});
	t.equal(frozen.record.exit_code, 0, `eval --freeze ${flags.join(' ')}: ${frozen.stderr}`);
	const run = JSON.parse(agent.stdout) as {provider: unknown; budgets: unknown};
	const plan = JSON.parse(await readFile(join(dir, `${name}-plan.json`), 'utf8')) as {provider: unknown; budgets: {max_steps: number; timeout_ms: number}};
	// The steps and the deadline are the shared flags'; the plan's per-task limits are freeze's own (tested below).
	const budgets = {max_steps: plan.budgets.max_steps, timeout_ms: plan.budgets.timeout_ms};
	return {agent: {provider: run.provider, budgets: run.budgets}, plan: {provider: plan.provider, budgets}, agentExit: agent.record.exit_code};
}

t.test('agent and eval --freeze share the provider flags and their defaults', async t => {
	const dir = await tempDir(t, 'hlab-provider-flags-');
	const defaults = await resolvedBy(dir, 'defaults', []);
	t.equal(defaults.agentExit, 0, 'the scripted run passes');
	t.same(defaults.agent, defaults.plan, 'the same defaults');
	t.same(defaults.plan, {provider: {kind: 'scripted', model: 'reference'}, budgets: {max_steps: 30, timeout_ms: 120_000}});

	const flags = ['--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'some-model', '--reasoning-effort', 'low', '--max-steps', '7', '--timeout', '45s'];
	const given = await resolvedBy(dir, 'given', flags);
	t.equal(given.agentExit, 1, 'the agent run fails (no key), after the flags were accepted');
	t.same(given.agent, given.plan, 'the same reading of the same flags');
	t.same(given.plan, {
		provider: {kind: 'openai-compatible', model: 'some-model', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'OPENAI_API_KEY', reasoning_effort: 'low'},
		budgets: {max_steps: 7, timeout_ms: 45_000},
	});
});

t.test('bad provider flags exit 2 with one hlab: line, in both commands, and nothing is written', async t => {
	const dir = await tempDir(t, 'hlab-provider-flags-');
	const cases: [string[], RegExp][] = [
		[['--max-steps', '0'], /--max-steps must be a positive whole number, got '0'/],
		[['--timeout', 'soon'], /--timeout: invalid duration 'soon'/],
		[['--provider', 'openai-compatible'], /needs --base-url and --model/],
		[['--base-url', 'http://127.0.0.1:9/v1'], /--base-url applies only with --provider openai-compatible/],
		[['--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--api-key-env', 'not a name'], /is not an environment variable name/],
		[['--provider', 'nope'], /'nope' is invalid/],
	];
	for (const [index, [flags, pattern]] of cases.entries()) {
		const runs = {
			agent: await hlab(['agent', '--task', 'answer_from_prompt', '--workspace', join(dir, `ws-${index}`), ...flags]),
			eval: await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', join(dir, `plan-${index}.json`), ...flags]),
		};
		for (const [command, run] of Object.entries(runs)) {
			t.equal(run.record.exit_code, 2, `${command} ${flags.join(' ')}`);
			t.match(run.stderr, pattern, `${command} ${flags.join(' ')} says why`);
			t.match(run.stderr, /^hlab: [^\n]+\n$/, `${command} ${flags.join(' ')}: one hlab: line`);
		}
		t.notOk(existsSync(join(dir, `ws-${index}`)) || existsSync(join(dir, `plan-${index}.json`)), 'nothing was set up or frozen');
	}
});

t.test('a domain input error exits 2 with one line, anything else that fails exits 1', async t => {
	const dir = await tempDir(t, 'hlab-provider-flags-');
	const unknown = await hlab(['eval', '--task', 'no_such_task', '--freeze', join(dir, 'plan.json')]);
	t.equal(unknown.record.exit_code, 2, 'an unknown task is bad input');
	t.match(unknown.stderr, /^hlab: [^\n]*no_such_task[^\n]*\n$/);
	const missing = await hlab(['eval', '--compare', `${join(dir, 'a.json')},${join(dir, 'b.json')}`]);
	t.equal(missing.record.exit_code, 2, 'an unreadable report is bad input');
	t.match(missing.stderr, /^hlab: cannot read report [^\n]+\n$/);
});

t.test('eval --freeze writes the per-task workspace and memory limits: the defaults, or the sizes given; a bad size exits 2', async t => {
	const dir = await tempDir(t, 'hlab-provider-flags-');
	const budgetsOf = async (name: string, flags: string[]): Promise<unknown> => {
		const frozen = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', join(dir, `${name}.json`), ...flags]);
		t.equal(frozen.record.exit_code, 0, frozen.stderr);
		return (JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8')) as {budgets: unknown}).budgets;
	};
	t.same(await budgetsOf('defaults', []), {max_steps: 30, timeout_ms: 120_000, workspace_limit_bytes: 256 * 1024 ** 2, memory_limit_bytes: 4 * 1024 ** 3});
	t.same(await budgetsOf('given', ['--workspace-limit', '512MiB', '--memory-limit', '3GiB']), {max_steps: 30, timeout_ms: 120_000, workspace_limit_bytes: 512 * 1024 ** 2, memory_limit_bytes: 3 * 1024 ** 3});
	for (const [flags, pattern] of [[['--workspace-limit', 'lots'], /--workspace-limit: invalid size 'lots'/], [['--memory-limit', '0'], /--memory-limit must be positive/]] as const) {
		const run = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', join(dir, 'bad.json'), ...flags]);
		t.equal(run.record.exit_code, 2, flags.join(' '));
		t.match(run.stderr, pattern);
		t.match(run.stderr, /^hlab: [^\n]+\n$/, 'one hlab: line');
		t.notOk(existsSync(join(dir, 'bad.json')), 'nothing was frozen');
	}
});
