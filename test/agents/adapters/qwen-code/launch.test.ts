import t from 'tap';
import {checkSpec} from '../../../../agents/index.js';
import {qwenCodeAdapter as adapter} from '../../../../agents/adapters/qwen-code/index.js';
import type {QwenSpec} from '../../../../agents/adapters/qwen-code/spec.js';
import {taskFor} from '../agent-run.js';

function qwenSpec(json: object = {}): QwenSpec {
	const checked = checkSpec({schema: 'harness-lab/agent@1', adapter: 'qwen-code', package: {name: '@qwen-code/qwen-code', version: '0.24.4'}, model: 'qwen3-coder-plus', ...json});
	if (typeof checked === 'string' || checked.adapter !== 'qwen-code') throw new Error(String(checked));
	return checked;
}

t.test('Qwen Code runs headless from its cli.js, yolo, stream-json, its budgets from the task\'s, the task on stdin', async t => {
	const spec = qwenSpec({config: {budget: {max_turns: 40}}, flags: ['--debug']});
	const task = await taskFor(t, spec, {prompt: '--yolo -p evil', baseUrl: 'http://127.0.0.1:9/v1', packageDir: '/store/q', systemPrompt: '-Be brief.'});
	task.deadlineMs = 90_500;
	const launch = adapter.launch(spec, task);
	t.strictSame(launch.argv, [
		process.execPath, '--expose-gc', '--liftoff-only', '/store/q/node_modules/@qwen-code/qwen-code/cli.js',
		'--output-format', 'stream-json', '--approval-mode', 'yolo', '--auth-type', 'openai', '--model=qwen3-coder-plus',
		'--max-session-turns', '40', '--max-wall-time', '90s', '--system-prompt=-Be brief.', '--debug',
	], 'the entry is cli.js, not the self-relaunching, self-updating cli-entry.js; its wasm is never recompiled optimized; = keeps a value that starts with - a value');
	t.strictSame(launch.stdin, {kind: 'text', text: '--yolo -p evil'});
	t.strictSame(launch.env, {
		HOME: task.home, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'hlab-placeholder-key', OPENAI_MODEL: 'qwen3-coder-plus',
		QWEN_CODE_NO_RELAUNCH: 'true', QWEN_USAGE_STATISTICS_ENABLED: 'false', QWEN_TELEMETRY_ENABLED: 'false', QWEN_CODE_SUPPRESS_YOLO_WARNING: '1', NO_COLOR: '1', TERM: 'dumb',
	});
	t.equal(launch.files.length, 1);
	t.equal(launch.files[0]!.path, '.qwen/settings.json');
	const settings = JSON.parse(launch.files[0]!.content);
	for (const alias of ['fastModel', 'compactionModel', 'advisorModel', 'visionModel']) t.equal(settings[alias], 'qwen3-coder-plus', `${alias} is pinned`);
	t.strictSame(settings.model, {name: 'qwen3-coder-plus'});
	t.equal(settings.modelFallbacks, '', 'no fallback model');
	t.strictSame(settings.security.auth, {selectedType: 'openai'});
	t.strictSame([settings.general.enableAutoUpdate, settings.privacy.usageStatisticsEnabled, settings.telemetry.enabled], [false, false, false]);
	t.strictSame(settings.memory, {enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false}, 'no background agent makes requests of its own');
	t.equal(settings.general.preventSystemSleep, false, 'no sleep inhibitor: it would ask the machine\'s logind over D-Bus');
	t.equal(settings.tools, undefined);
});

t.test('without a turn budget the task\'s step limit is Qwen Code\'s; tools from allow and deny', async t => {
	const spec = qwenSpec({config: {tools: {allow: ['read_file', 'write_file'], deny: ['web_fetch']}}});
	const task = await taskFor(t, spec, {prompt: 'p', baseUrl: 'http://127.0.0.1:9/v1', packageDir: '/pkg'});
	const launch = adapter.launch(spec, task);
	t.equal(launch.argv[launch.argv.indexOf('--max-session-turns') + 1], String(task.maxSteps));
	t.notOk(launch.argv.some(arg => arg.startsWith('--system-prompt')), 'no system prompt: Qwen Code\'s own');
	t.strictSame(JSON.parse(launch.files[0]!.content).tools, {core: ['read_file', 'write_file'], exclude: ['web_fetch']});
});

t.test('every flag the adapter sets is reserved', async t => {
	const spec = qwenSpec();
	const task = await taskFor(t, spec, {prompt: 'p', baseUrl: 'http://127.0.0.1:9/v1', packageDir: '/pkg', systemPrompt: 's'});
	const set = adapter.launch(spec, task).argv.filter(arg => arg.startsWith('--') && !['--expose-gc', '--liftoff-only'].includes(arg)).map(arg => arg.split('=')[0]!);
	for (const flag of set) t.ok(adapter.reservedFlags.includes(flag), `${flag} is reserved`);
	t.equal(adapter.bin, 'qwen');
});
