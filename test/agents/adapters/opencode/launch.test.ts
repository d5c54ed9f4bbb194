import {join} from 'node:path';
import t from 'tap';
import {checkSpec} from '../../../../agents/index.js';
import {opencodeAdapter as adapter} from '../../../../agents/adapters/opencode/index.js';
import type {OpencodeSpec} from '../../../../agents/adapters/opencode/spec.js';
import {taskFor} from '../agent-run.js';

function opencodeSpec(json: object = {}): OpencodeSpec {
	const checked = checkSpec({schema: 'harness-lab/agent@1', adapter: 'opencode', package: {name: 'opencode-ai', version: '1.18.33'}, model: 'gpt-4.1-mini', ...json});
	if (typeof checked === 'string' || checked.adapter !== 'opencode') throw new Error(String(checked));
	return checked;
}

const packageDir = '/store/opencode-ai@1.18.33';

t.test('opencode runs its platform binary (the package\'s bin is a placeholder without its postinstall), JSON events, every permission, the task on stdin', async t => {
	const spec = opencodeSpec({flags: ['--print-logs']});
	const task = await taskFor(t, spec, {prompt: 'Write "a b".txt', baseUrl: 'http://127.0.0.1:9/v1', packageDir});
	const launch = adapter.launch(spec, task);
	t.match(launch.argv[0], /^\/store\/opencode-ai@1\.18\.33\/node_modules\/opencode-linux-x64(-baseline)?\/bin\/opencode$/);
	t.strictSame(launch.argv.slice(1), ['run', '--format', 'json', '--auto', '--pure', '--model', 'hlab/gpt-4.1-mini', '--print-logs']);
	t.strictSame(launch.stdin, {kind: 'text', text: 'Write "a b".txt'}, 'opencode quotes a positional message with spaces; stdin it keeps as it is');
	for (const name of ['OPENCODE_DISABLE_AUTOUPDATE', 'OPENCODE_DISABLE_MODELS_FETCH', 'OPENCODE_DISABLE_SHARE', 'OPENCODE_DISABLE_LSP_DOWNLOAD', 'OPENCODE_DISABLE_DEFAULT_PLUGINS', 'OPENCODE_DISABLE_CLAUDE_CODE', 'OPENCODE_DISABLE_EXTERNAL_SKILLS', 'OPENCODE_DISABLE_PROJECT_CONFIG', 'OPENCODE_PURE']) {
		t.equal(launch.env[name], '1', `${name} is set`);
	}
	t.equal(launch.env.HOME, task.home);
	t.notOk(JSON.stringify(launch.env).includes(task.apiKey));
	const files = Object.fromEntries(launch.files.map(file => [file.path, file.content]));
	t.strictSame(Object.keys(files), ['.config/opencode/opencode.json', '.npmrc']);
	t.equal(files['.npmrc'], 'registry=http://127.0.0.1:9/\nfetch-retries=0\n', 'its background plugin install asks a closed loopback port, not the registry');
	const config = JSON.parse(files['.config/opencode/opencode.json']!);
	t.strictSame(config.provider, {hlab: {npm: '@ai-sdk/openai-compatible', name: 'hlab', options: {baseURL: 'http://127.0.0.1:9/v1', apiKey: 'hlab-placeholder-key'}, models: {'gpt-4.1-mini': {name: 'gpt-4.1-mini', tool_call: true}}}});
	t.strictSame(config.enabled_providers, ['hlab']);
	t.equal(config.model, 'hlab/gpt-4.1-mini');
	t.equal(config.small_model, 'hlab/gpt-4.1-mini', 'the title model too');
	t.strictSame(Object.keys(config.agent), ['build', 'plan', 'general', 'explore', 'title', 'summary', 'compaction']);
	for (const [name, agent] of Object.entries<{model: string}>(config.agent)) t.equal(agent.model, 'hlab/gpt-4.1-mini', `agent ${name} is pinned`);
	t.equal(config.agent.build.steps, task.maxSteps);
	t.strictSame([config.autoupdate, config.share, config.lsp, config.formatter], [false, 'disabled', false, false]);
	t.strictSame(config.permission, {'*': 'allow'});
});

t.test('the system prompt is a file the build agent\'s prompt names; turns and tools from the spec', async t => {
	const spec = opencodeSpec({config: {system_prompt_file: 's.md', budget: {max_turns: 7}, tools: {deny: ['webfetch']}}});
	const task = await taskFor(t, spec, {prompt: 'p', baseUrl: 'http://127.0.0.1:9/v1', packageDir, systemPrompt: 'Use {env:HOME} literally.'});
	const launch = adapter.launch(spec, task);
	t.strictSame(launch.files.at(-1), {path: 'hlab/system-prompt.md', content: 'Use {env:HOME} literally.'}, 'the text is in a file: opencode substitutes {env:…} in its config, not in a file it includes');
	const config = JSON.parse(launch.files[0]!.content);
	t.equal(config.agent.build.prompt, `{file:${join(task.home, 'hlab/system-prompt.md')}}`);
	t.equal(config.agent.build.steps, 7);
	t.strictSame(config.permission, {'*': 'allow', webfetch: 'deny'});
	const allowed = JSON.parse(adapter.launch(opencodeSpec({config: {tools: {allow: ['read', 'write']}}}), task).files[0]!.content);
	t.strictSame(allowed.permission, {'*': 'deny', read: 'allow', write: 'allow'});
});

t.test('every flag the adapter sets is reserved', async t => {
	const spec = opencodeSpec();
	const task = await taskFor(t, spec, {prompt: 'p', baseUrl: 'http://127.0.0.1:9/v1', packageDir});
	for (const flag of adapter.launch(spec, task).argv.filter(arg => arg.startsWith('--'))) t.ok(adapter.reservedFlags.includes(flag), `${flag} is reserved`);
	t.notOk(adapter.reservedFlags.includes('--print-logs'), 'the example spec\'s own flag stays the spec\'s');
});
