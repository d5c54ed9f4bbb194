import t from 'tap';
import {adapterOf, checkSpec, type AgentTask} from '../../agents/index.js';
import {adapters} from '../../agents/adapters/index.js';
import {AdapterNotBuilt, notBuilt} from '../../agents/adapters/not-built.js';
import {AdapterId} from '../../agents/adapter-id.js';

const task: AgentTask = {
	task: {id: 't', prompt: 'do the thing'}, workspace: '/w', home: '/h', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'hlab-metered', model: 'm',
	deadlineMs: 1000, maxSteps: 3, packageDir: null, specDir: '/specs', systemPrompt: null,
};

t.test('every adapter id has an entry of its own id in the registry', async t => {
	t.strictSame(Object.keys(adapters).sort(), [...AdapterId.options].sort());
	for (const id of AdapterId.options) t.equal(adapters[id].id, id);
});

t.test('an adapter that is not built yet refuses to launch with an error value that says so', async t => {
	// The placeholder itself, not the registry's pi entry: that one is replaced when pi's adapter lands.
	const spec = checkSpec({schema: 'harness-lab/agent@1', adapter: 'pi', package: {name: '@mariozechner/pi-coding-agent', version: '0.73.1'}, model: 'm'});
	if (typeof spec === 'string' || spec.adapter !== 'pi') return t.fail(String(spec));
	const stub = notBuilt({id: 'pi', version: 1, bin: 'pi', reservedFlags: ['--model']});
	t.throws(() => stub.launch(spec, task), new AdapterNotBuilt('the pi adapter is not built yet: its spec is accepted and installed, but it cannot run a task'));
	const thrown = (() => {
		try {
			stub.launch(spec, task);
			return null;
		} catch (error) {
			return error;
		}
	})();
	t.ok(thrown instanceof AdapterNotBuilt && thrown.reason === 'not_built', 'a value the supervisor can branch on');
	t.match(stub, {id: 'pi', bin: 'pi', reservedFlags: ['--model']}, 'its bin and reserved flags are known before it is built');
});

t.test('the command adapter: a script beside the spec, the task last or on stdin, the endpoint and the limits in the environment', async t => {
	const byArgument = checkSpec({schema: 'harness-lab/agent@1', adapter: 'command', executable: 'run.sh', task_input: 'argument', flags: ['--fast']});
	const byStdin = checkSpec({schema: 'harness-lab/agent@1', adapter: 'command', package: {name: 'semver', version: '7.7.2'}, executable: 'semver', task_input: 'stdin'});
	if (typeof byArgument === 'string' || typeof byStdin === 'string') return t.fail('specs refused');
	const argument = adapterOf(byArgument).launch(byArgument, {...task, systemPrompt: 'be brief'});
	t.strictSame(argument.argv, ['/specs/run.sh', '--fast', 'do the thing']);
	t.strictSame(argument.stdin, {kind: 'null'});
	t.match(argument.env, {OPENAI_BASE_URL: task.baseUrl, OPENAI_API_KEY: 'hlab-metered', OPENAI_MODEL: 'm', HLAB_TASK_DEADLINE_MS: '1000', HLAB_TASK_MAX_STEPS: '3', HLAB_SYSTEM_PROMPT_FILE: '/h/.hlab/system-prompt.txt'});
	t.strictSame(argument.files, [{path: '.hlab/system-prompt.txt', content: 'be brief'}]);
	const stdin = adapterOf(byStdin).launch(byStdin, {...task, packageDir: '/store/semver@7.7.2'});
	t.strictSame(stdin.argv, ['/store/semver@7.7.2/node_modules/.bin/semver'], 'a bin of the pinned package, npm\'s link in the store');
	t.strictSame(stdin.stdin, {kind: 'text', text: 'do the thing'});
	const outputs = {stdout: '  the answer\n', stderr: '', exitCode: 0, signal: null, home: '/h', endedBySupervisor: false};
	const collected = adapterOf(byArgument).collect(outputs);
	t.strictSame(collected, {messages: [{role: 'assistant', content: 'the answer'}], usageClaim: null, finalText: 'the answer'});
	t.strictSame(adapterOf(byArgument).classify(outputs, collected), {status: 'finished'});
	t.match(adapterOf(byArgument).classify({...outputs, exitCode: 3}, collected), {status: 'failed', reason: 'crash'});
});
