import {z} from 'zod';
import {TaskFailureReason} from './task-reasons.js';
import type {TaskResult} from '../report/report-schema.js';

/** Why a task (or the whole denominator) failed: a class callers branch on and a sentence for people. */
export const TaskFailure = z.object({reason: TaskFailureReason, message: z.string()});
export type TaskFailure = z.infer<typeof TaskFailure>;

/** What a failed task did get to do before it failed; everything else stays unknown. */
export type FailedRun = Partial<Pick<TaskResult, 'outcome' | 'usage' | 'wall_ms' | 'evidence'>>;

/** The one way a task of the denominator is recorded as failed: its reason, and null for whatever it never reached. */
export function failedResult(index: number, taskId: string, failure: TaskFailure, ran: FailedRun = {}): TaskResult {
	return {
		index, task_id: taskId, status: 'failed', reason: failure.reason, message: failure.message,
		grade: null, outcome: null, usage: null, wall_ms: null, evidence: {}, leak_audit: null,
		...ran,
	};
}
