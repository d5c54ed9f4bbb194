import {readLedger} from '../attempt/index.js';
import type {PairTask, PairTaskSide, SideName} from './pair-record.js';

export const missingTask: PairTaskSide = {status: 'missing', reason: null, message: null, usage: null, wall_ms: null, recorded_at: null};

/** The fixed denominator with every task missing on both sides. */
export function emptyTasks(taskIds: string[]): PairTask[] {
	return taskIds.map((task_id, index) => ({index, task_id, baseline: {...missingTask}, candidate: {...missingTask}}));
}

/**
 * Copies a side's finished-task records from its ledger.jsonl into the pair's task list. Only records for a task
 * of the frozen denominator at its frozen index count; the first record of a task wins (the ledger is
 * append-only); tasks without a record stay missing. Returns whether anything changed, and problems seen.
 */
export async function syncLedger(ledgerPath: string, side: SideName, tasks: PairTask[]): Promise<{changed: boolean; problems: string[]}> {
	const read = await readLedger(ledgerPath);
	const problems: string[] = [];
	let changed = false;
	const seen = new Set<number>();
	for (const record of read.records) {
		const result = record.result;
		const task = tasks[result.index];
		if (task === undefined || task.task_id !== result.task_id) {
			problems.push(`${side} ledger has a record for ${result.task_id} at index ${result.index}, which is not in the plan's denominator`);
			continue;
		}
		if (seen.has(result.index)) {
			problems.push(`${side} ledger has more than one record for ${result.task_id}; the first one counts`);
			continue;
		}
		seen.add(result.index);
		if (task[side].recorded_at !== null) continue;
		task[side] = {status: result.status, reason: result.reason, message: result.message, usage: result.usage, wall_ms: result.wall_ms, recorded_at: record.recorded_at};
		changed = true;
	}
	// A torn line is what a crash mid-append leaves; it is reported, and the records before it are kept.
	if (read.unreadable.length > 0) problems.push(`${side} ledger has unreadable lines ${read.unreadable.join(', ')}`);
	return {changed, problems};
}
