import {join} from 'node:path';
import t from 'tap';
import {readAgentTiming} from '../../../supervisor/agent/agent-timing.js';
import {runAttempt} from '../../../supervisor/attempt/index.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {freezeAgentPlan, solvingAgent, writeCommandAgent} from './command-agents.js';

checkNoLeaks(t);

t.test('an agent side with a task that never launched has an unknown task sum, not the sum of the others', async t => {
	const dir = await tempDir(t, 'hlab-agent-timing-');
	// A budget of one task: the second is refused before launch, so it has no process record.
	const planPath = await freezeAgentPlan(t, dir, {tasks: 'answer_from_prompt,implement_function', totalBudget: {max_total_tasks: 1, max_total_tokens: null}});
	const agent = await writeCommandAgent(dir, 'solver', solvingAgent);
	const artifacts = join(dir, 'side');
	const {report} = await runAttempt({planPath, artifacts, candidatePath: null, agentSpec: agent.spec, keepWorkdirs: false, configPath: null, quiet: true, cwd: dir});
	t.same(report.tasks.map(task => task.reason), [null, 'budget'], 'the first ran, the second was refused');
	const timing = await readAgentTiming(join(artifacts, 'report.json'));
	if (timing === null || typeof timing === 'string') throw new Error(`expected an agent side's timing, got ${String(timing)}`);
	t.ok(timing.tasks[0]!.wall_ms !== null && timing.tasks[0]!.wall_ms > 0, 'the launched task has its process record');
	t.equal(timing.tasks[1]!.wall_ms, null, 'the refused one has none');
	t.equal(timing.complete, false);
	t.equal(timing.wall_ms, null, 'a sum with an unknown part is unknown');
});
