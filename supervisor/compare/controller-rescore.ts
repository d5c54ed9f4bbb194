import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {ControllerIdentity, TasksResult} from '../../controller-protocol/index.js';
import {createControllerClient} from '../controller/index.js';
import {readMessages} from '../attempt/controller-tasks.js';
import type {Plan} from '../plan/plan-schema.js';
import type {ReportSide} from './verify-reports.js';

/**
 * For controller plans: re-reads each retained execution (messages, result.json) and workspace and asks the
 * pinned controller to score it. The re-score replaces each report's verdict; missing artifacts are problems.
 */
export async function rescoreWithController(plan: Plan, sides: ReportSide[]): Promise<string[]> {
	if (plan.controller === null) return [];
	const client = createControllerClient({identity: ControllerIdentity.parse(plan.controller.identity)});
	const tasks = TasksResult.parse(plan.controller.tasks).tasks;
	const problems: string[] = [];
	for (const side of sides) {
		const report = side.report;
		if (report === null) continue;
		for (const result of report.tasks) {
			// A task that never executed stays failed; there is nothing to score.
			if (result.outcome === null) continue;
			const task = tasks.find(item => item.id === result.task_id);
			const workspace = result.evidence.workspace === undefined ? null : join(side.dir, result.evidence.workspace);
			const resultPath = result.evidence.result === undefined ? null : join(side.dir, result.evidence.result);
			if (task === undefined || workspace === null || resultPath === null || !existsSync(workspace) || !existsSync(resultPath)) {
				problems.push(`${side.label}: task ${result.task_id} has no retained workspace or result to re-score`);
				continue;
			}
			const messages = result.evidence.messages === undefined ? [] : await readMessages(join(side.dir, result.evidence.messages));
			const recorded = JSON.parse(await readFile(resultPath, 'utf8')) as Record<string, unknown>;
			const answer = await client.call('score', {task, workspace, messages, result: recorded});
			if (!answer.ok) {
				problems.push(`${side.label}: the pinned controller could not re-score ${result.task_id} (${answer.error.reason}): ${answer.error.message}`);
				continue;
			}
			const passed = answer.value.passed;
			if (passed !== (result.status === 'passed')) {
				problems.push(`${side.label}: task ${result.task_id} is recorded ${result.status} but the pinned controller's re-score says ${passed ? 'passed' : 'failed'} (${answer.value.details})`);
			}
		}
	}
	return problems;
}
