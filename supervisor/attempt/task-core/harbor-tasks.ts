import {join} from 'node:path';
import {writeJson} from '../../../files/write-json.js';
import {instructionOf, runVerifier, seedHarborWorkspace, type HarborTask} from '../../../tasks/harbor/index.js';
import type {PlanHarbor} from '../../plan/plan-harbor.js';
import {entryTaskId} from '../../plan/task-selection.js';
import type {Grade} from '../../../tasks/index.js';
import type {AttemptTask, GradeContext} from './attempt-task.js';

/** Where a Harbor task's verifier keeps its record in the task folder, beside result.json and its `verifier/` (/logs/verifier). */
export const verifierRecordFile = 'verifier.json';

/**
 * The tasks of a Harbor plan: the instruction is the prompt, the workspace holds what the Dockerfile copies into the
 * WORKDIR, and the verifier (tests/test.sh) grades it after the agent ended, in a view of its own.
 */
export function harborAttemptTasks(harbor: PlanHarbor, entries: string[]): Array<AttemptTask | null> {
	return entries.map(entry => {
		const task = harbor.tasks.find(item => item.id === entryTaskId(entry));
		return task === undefined ? null : harborTask(entry, task);
	});
}

function harborTask(id: string, task: HarborTask): AttemptTask {
	return {
		id,
		prompt: instructionOf(task),
		tools: [],
		deadlineMs: task.agent_timeout_ms,
		...(task.memory_bytes === null ? {} : {memoryLimitBytes: task.memory_bytes}),
		setup: async workspace => seedHarborWorkspace(task, workspace),
		grade: context => verify(task, context),
		// The verifier may run the agent's code: what it writes into the evidence is bounded like the workspace.
		graderFolders: taskDir => [verifierLogs(taskDir)],
	};
}

/** The verifier's /logs/verifier in the task's evidence folder. */
function verifierLogs(taskDir: string): string {
	return join(taskDir, 'verifier');
}

/** The reward from the evidence folder the verifier alone wrote; no reward, a crash or a timeout is the grader's failure. */
async function verify(task: HarborTask, context: GradeContext): Promise<Grade> {
	if (context.taskDir === undefined) throw new Error('a Harbor verifier writes into the task\'s evidence, and there is none');
	const run = await runVerifier({task, workspace: context.workspace, logsDir: verifierLogs(context.taskDir), hidden: context.hidden ?? [], signal: context.signal});
	await writeJson(join(context.taskDir, verifierRecordFile), {
		schema: 'harness-lab/harbor-verifier@1',
		task_id: task.id,
		reward: 'reward' in run ? run.reward : null,
		problem: 'problem' in run ? run.problem : null,
		process: run.record,
	}, {durable: true, exclusive: true});
	if ('problem' in run) throw new Error(run.problem);
	return run.grade;
}
