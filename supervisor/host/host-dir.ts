import {resolve} from 'node:path';
import type {HostTaskRecord} from './host-records.js';

// Apart from host-session.ts, which identifies the host build (git, process/): a comparison reads the records and runs nothing.
/** The host record folder of an evidence directory: `host-attempt` keeps `host-attempt.host/`. */
export function hostDirOf(artifacts: string): string {
	return `${resolve(artifacts).replace(/\/+$/, '')}.host`;
}

/**
 * The whole attempt's wall time as the supervisor measured it: from the first launch's start to the last launch's
 * end, on the session's monotonic clock (overlapping tasks count once), with the per-task sum beside it.
 */
export function attemptWall(tasks: HostTaskRecord[]): {attempt_wall_ms: number | null; task_sum_ms: number | null} {
	const spans = tasks.filter(task => task.started_ms !== null && task.ended_ms !== null);
	if (spans.length === 0) return {attempt_wall_ms: null, task_sum_ms: null};
	const first = Math.min(...spans.map(task => task.started_ms!));
	const last = Math.max(...spans.map(task => task.ended_ms!));
	return {attempt_wall_ms: last - first, task_sum_ms: tasks.reduce((sum, task) => sum + task.wall_ms, 0)};
}
