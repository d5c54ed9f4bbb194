import {join} from 'node:path';
import {ControllerIdentity, TasksResult, type ControllerTask} from '../../../controller-protocol/index.js';
import {createControllerClient, type ControllerClient} from '../../controller/index.js';
import type {Plan} from '../../plan/plan-schema.js';
import type {AttemptTask} from './attempt-task.js';
import {readMessages} from '../report/read-messages.js';

/** The tasks of a controller plan: the frozen task list, set up and scored by the pinned controller. */
export function controllerAttemptTasks(plan: Plan, evidenceDir: string, signal: AbortSignal): Array<AttemptTask | null> {
	if (plan.controller === null) throw new Error('not a controller plan');
	const client = createControllerClient({identity: ControllerIdentity.parse(plan.controller.identity), evidenceDir, signal});
	const frozen = TasksResult.parse(plan.controller.tasks).tasks;
	return plan.task_ids.map(id => {
		const task = frozen.find(item => item.id === id);
		return task === undefined ? null : controllerTask(client, task);
	});
}

function controllerTask(client: ControllerClient, task: ControllerTask): AttemptTask {
	return {
		id: task.id,
		prompt: task.prompt,
		tools: [],
		async setup(workspace) {
			const answer = await client.call('setup', {task, workspace});
			if (!answer.ok) throw new Error(`controller setup failed (${answer.error.reason}): ${answer.error.message}`);
		},
		async grade(context) {
			const messages = await readMessages(join(context.stateDir, 'messages.jsonl'));
			const answer = await client.call('score', {task, workspace: context.workspace, messages, result: {task_id: task.id, outcome: context.outcome}});
			if (!answer.ok) throw new Error(`controller score failed (${answer.error.reason}): ${answer.error.message}`);
			return {passed: answer.value.passed, score: answer.value.score ?? null, details: answer.value.details};
		},
	};
}
