import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {TasksResult} from '../../controller-protocol/index.js';
import type {ControllerClient} from '../controller/index.js';
import {readMessages} from '../attempt/read-evidence.js';
import type {Plan} from '../plan/plan-schema.js';
import type {ReportSide} from './verify-reports.js';

/** The pinned controller's fresh grade of one retained execution; null when it could not grade it. */
export interface Rescore {
	passed: boolean;
	score: number | null;
}

/** Per side, task id → its re-score. A task that never executed has no entry: it stays failed as recorded. */
export type Rescores = Record<ReportSide['label'], Map<string, Rescore | null>>;

/**
 * For controller plans: re-reads each retained execution (messages, result.json) and workspace and asks the
 * pinned controller to score it. The re-scores replace each report's verdicts; a missing artifact, a failed
 * call or a verdict that differs from the recorded one is a problem.
 */
export async function rescoreWithController(plan: Plan, sides: ReportSide[], client: ControllerClient): Promise<{problems: string[]; rescores: Rescores}> {
	const rescores: Rescores = {baseline: new Map(), candidate: new Map()};
	const problems: string[] = [];
	const tasks = TasksResult.parse(plan.controller?.tasks).tasks;
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
				rescores[side.label].set(result.task_id, null);
				continue;
			}
			const messages = result.evidence.messages === undefined ? [] : await readMessages(join(side.dir, result.evidence.messages));
			const recorded = await readRecordedResult(resultPath);
			if (recorded === null) {
				problems.push(`${side.label}: task ${result.task_id} has a retained result.json that is not a JSON object, so it cannot be re-scored`);
				rescores[side.label].set(result.task_id, null);
				continue;
			}
			const answer = await client.call('score', {task, workspace, messages, result: recorded});
			if (!answer.ok) {
				problems.push(`${side.label}: the pinned controller could not re-score ${result.task_id} (${answer.error.reason}): ${answer.error.message}`);
				rescores[side.label].set(result.task_id, null);
				continue;
			}
			const passed = answer.value.passed;
			rescores[side.label].set(result.task_id, {passed, score: answer.value.score ?? null});
			if (passed !== (result.status === 'passed')) {
				problems.push(`${side.label}: task ${result.task_id} is recorded ${result.status} but the pinned controller's re-score says ${passed ? 'passed' : 'failed'} (${answer.value.details})`);
			}
		}
	}
	return {problems, rescores};
}

/** The execution's result.json as the controller is shown it; null when it is not a JSON object. */
async function readRecordedResult(path: string): Promise<Record<string, unknown> | null> {
	try {
		const value: unknown = JSON.parse(await readFile(path, 'utf8'));
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : null;
	} catch {
		return null;
	}
}
