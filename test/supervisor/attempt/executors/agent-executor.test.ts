import {existsSync} from 'node:fs';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {admitAgent} from '../../../../supervisor/agent/index.js';
import {agentExecutor} from '../../../../supervisor/attempt/executors/agent-executor.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {tempDir} from '../../../temp-dir.js';
import {solvingAgent, writeCommandAgent} from '../../agent/command-agents.js';

checkNoLeaks(t);

t.test('an agent that never started has no process record: its execution\'s wall time is unknown (null), not 0', async t => {
	const dir = await tempDir(t, 'hlab-agent-executor-');
	const files = await writeCommandAgent(dir, 'prompted', solvingAgent);
	// A system prompt makes the adapter write $HOME/.hlab/system-prompt.txt before the launch.
	await writeFile(join(dir, 'system.md'), 'answer briefly');
	await writeFile(files.spec, JSON.stringify({schema: 'harness-lab/agent@1', adapter: 'command', executable: 'prompted.mjs', task_input: 'argument', env: [], config: {system_prompt_file: 'system.md'}}));
	const admitted = await admitAgent(files.spec);
	if (!admitted.ok) throw new Error(admitted.message);
	const task = join(dir, 'task');
	const paths = {relDir: 'task', dir: join(task, 'evidence'), runtime: join(task, 'runtime'), state: join(task, 'state'), session: join(task, 'session'), workspace: join(task, 'workspace')};
	await Promise.all([paths.workspace, paths.state, join(paths.runtime, 'home')].map(path => mkdir(path, {recursive: true})));
	// Where the adapter's folder must go, a file: its files cannot be written, so the agent is never launched.
	await writeFile(join(paths.runtime, 'home', '.hlab'), 'in the way');
	const executor = agentExecutor(admitted.agent);
	await executor.start(1);
	t.teardown(() => executor.close());
	const run = await executor.execute({
		index: 0, task: {id: 'answer_from_prompt', prompt: 'say hi'}, paths,
		provider: {base_url: 'http://127.0.0.1:9/v1', model: 'unused', api_key_env: null, reasoning_effort: null},
		maxSteps: 4, deadlineMs: 10_000, memoryLimitBytes: 512 * 1024 * 1024, signal: new AbortController().signal,
	});
	t.match(run.unfinished, {reason: 'init', message: /the command adapter could not launch the agent/});
	t.equal(run.outcome, null, 'no outcome: nothing ran');
	t.notOk(existsSync(join(paths.dir, 'process.json')), 'no process record was written');
	t.equal(run.wall_ms, null, 'no process record, no measured wall time');
});
