import {join} from 'node:path';
import t from 'tap';
import {checkSpec} from '../../../../agents/index.js';
import {codexAdapter as adapter} from '../../../../agents/adapters/codex/index.js';
import type {CodexSpec} from '../../../../agents/adapters/codex/spec.js';
import {taskFor} from '../agent-run.js';

function codexSpec(json: object = {}): CodexSpec {
	const checked = checkSpec({schema: 'harness-lab/agent@1', adapter: 'codex', package: {name: '@openai/codex', version: '0.171.0'}, model: 'gpt-5-codex', ...json});
	if (typeof checked === 'string' || checked.adapter !== 'codex') throw new Error(String(checked));
	return checked;
}

const packageDir = '/store/codex';

t.test('Codex runs its native binary (not the node wrapper), exec --json, the task on stdin, its provider and model from config.toml', async t => {
	const spec = codexSpec({flags: ['--skip-git-repo-check']});
	const task = await taskFor(t, spec, {prompt: '--help', baseUrl: 'http://127.0.0.1:9/v1', packageDir});
	const launch = adapter.launch(spec, task);
	t.equal(launch.argv[0], '/store/codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex');
	t.strictSame(launch.argv.slice(1), ['exec', '--json', '--color', 'never', '--skip-git-repo-check', '-'], 'the prompt is read from stdin (-), never parsed as a flag');
	t.strictSame(launch.stdin, {kind: 'text', text: '--help'});
	t.strictSame(launch.env, {HOME: task.home, CODEX_HOME: join(task.home, '.codex'), HLAB_PROVIDER_KEY: 'hlab-placeholder-key', NO_COLOR: '1', TERM: 'dumb'});
	t.strictSame(launch.files.map(file => file.path), ['.codex/config.toml']);
	const toml = launch.files[0]!.content;
	for (const line of [
		'model = "gpt-5-codex"', 'model_provider = "hlab"', 'approval_policy = "never"', 'sandbox_mode = "danger-full-access"',
		'check_for_update_on_startup = false', 'web_search = "disabled"',
		'[model_providers.hlab]', 'base_url = "http://127.0.0.1:9/v1"', 'env_key = "HLAB_PROVIDER_KEY"', 'wire_api = "responses"',
		'[analytics]\nenabled = false', '[feedback]\nenabled = false', 'apps = false', 'plugins = false', 'remote_plugin = false', 'api_key_model_discovery = false',
	]) t.ok(toml.includes(`${line}\n`), line);
	t.notOk(toml.includes('model_instructions_file'), 'no system prompt: Codex\'s own');
});

t.test('the system prompt is a file model_instructions_file names; strings are TOML-quoted', async t => {
	const spec = codexSpec({model: 'a"b\\c'});
	const task = await taskFor(t, spec, {prompt: 'p', baseUrl: 'http://127.0.0.1:9/v1', packageDir, systemPrompt: 'Be brief.'});
	const launch = adapter.launch(spec, task);
	t.strictSame(launch.files[1], {path: 'hlab/system-prompt.md', content: 'Be brief.'});
	t.match(launch.files[0]!.content, `model_instructions_file = ${JSON.stringify(join(task.home, 'hlab/system-prompt.md'))}\n`);
	t.match(launch.files[0]!.content, 'model = "a\\"b\\\\c"\n', 'a quote in the model cannot end the string');
});

t.test('every flag the adapter sets is reserved; the example spec\'s own flag is not', async t => {
	const spec = codexSpec();
	const task = await taskFor(t, spec, {prompt: 'p', baseUrl: 'http://127.0.0.1:9/v1', packageDir});
	for (const flag of adapter.launch(spec, task).argv.filter(arg => arg.startsWith('--') && arg !== '--color')) t.ok(adapter.reservedFlags.includes(flag), `${flag} is reserved`);
	t.notOk(adapter.reservedFlags.includes('--skip-git-repo-check'));
});
