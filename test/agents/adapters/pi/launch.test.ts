import {join} from 'node:path';
import t from 'tap';
import {checkSpec} from '../../../../agents/index.js';
import {piAdapter as adapter} from '../../../../agents/adapters/pi/index.js';
import type {PiSpec} from '../../../../agents/adapters/pi/spec.js';
import {taskFor} from '../agent-run.js';

function piSpec(json: object = {}): PiSpec {
	const checked = checkSpec({schema: 'harness-lab/agent@1', adapter: 'pi', package: {name: '@mariozechner/pi-coding-agent', version: '0.73.1'}, model: 'gpt-4.1-mini', ...json});
	if (typeof checked === 'string' || checked.adapter !== 'pi') throw new Error(String(checked));
	return checked;
}

t.test('pi runs its JSON mode, offline, pinned to the one provider and model, with the task on stdin', async t => {
	const spec = piSpec({flags: ['--thinking=off']});
	const task = await taskFor(t, spec, {prompt: '@secret.txt --tools none', baseUrl: 'http://127.0.0.1:9/v1', packageDir: '/store/pi'});
	const launch = adapter.launch(spec, task);
	t.strictSame(launch.argv, [
		process.execPath, '/store/pi/node_modules/@mariozechner/pi-coding-agent/dist/cli.js',
		'--mode', 'json', '--print', '--offline', '--provider', 'hlab', '--model', 'gpt-4.1-mini',
		'--no-extensions', '--no-skills', '--no-prompt-templates', '--no-themes', '--no-context-files',
		'--thinking=off',
	]);
	t.strictSame(launch.stdin, {kind: 'text', text: '@secret.txt --tools none'}, 'the task is never parsed as flags or @files');
	t.strictSame(launch.env, {HOME: task.home, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0', NO_COLOR: '1', TERM: 'dumb'});
	t.notOk(JSON.stringify(launch.env).includes(task.apiKey), 'the key is in the provider file, not the environment');
	const files = Object.fromEntries(launch.files.map(file => [file.path, JSON.parse(file.content)]));
	t.strictSame(Object.keys(files), ['.pi/agent/models.json', '.pi/agent/settings.json']);
	t.strictSame(files['.pi/agent/models.json'], {providers: {hlab: {
		baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions', apiKey: 'hlab-placeholder-key',
		compat: {supportsDeveloperRole: false, supportsReasoningEffort: false}, models: [{id: 'gpt-4.1-mini', reasoning: false}],
	}}}, 'one provider, one model: nothing else to fall back on');
	t.strictSame(files['.pi/agent/settings.json'], {defaultProvider: 'hlab', defaultModel: 'gpt-4.1-mini', enableInstallTelemetry: false, quietStartup: true});
});

t.test('the system prompt is a file under $HOME that --system-prompt names; tools come from the spec\'s allow and deny', async t => {
	const spec = piSpec({config: {system_prompt_file: 'system.md', tools: {deny: ['bash']}}});
	const task = await taskFor(t, spec, {prompt: 'p', baseUrl: 'http://127.0.0.1:9/v1', packageDir: '/pkg', systemPrompt: 'Be brief.'});
	const launch = adapter.launch(spec, task);
	t.strictSame(launch.files.at(-1), {path: 'hlab/system-prompt.md', content: 'Be brief.'});
	const at = launch.argv.indexOf('--system-prompt');
	t.equal(launch.argv[at + 1], join(task.home, 'hlab/system-prompt.md'));
	t.equal(launch.argv[launch.argv.indexOf('--tools') + 1], 'read,edit,write', 'the defaults without the denied one');
	const allowed = adapter.launch(piSpec({config: {tools: {allow: ['read', 'write']}}}), task);
	t.equal(allowed.argv[allowed.argv.indexOf('--tools') + 1], 'read,write');
});

t.test('every flag the adapter sets is reserved, so a spec cannot override it', async t => {
	const spec = piSpec({config: {system_prompt_file: 's.md', tools: {allow: ['read']}}});
	const task = await taskFor(t, spec, {prompt: 'p', baseUrl: 'http://127.0.0.1:9/v1', packageDir: '/pkg', systemPrompt: 's'});
	const set = adapter.launch(spec, task).argv.filter(arg => arg.startsWith('--') && !arg.startsWith('--no-'));
	for (const flag of set) t.ok(adapter.reservedFlags.includes(flag), `${flag} is reserved`);
	t.equal(adapter.id, 'pi');
	t.equal(adapter.bin, 'pi');
});
