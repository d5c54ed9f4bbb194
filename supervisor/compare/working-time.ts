import type {Report, TaskResult} from '../attempt/report/report-schema.js';

/**
 * A side's working time: each task's supervisor-measured wall time less what the engine spent waiting on the
 * provider's limits and retries. Unknown (null) as soon as one task's wall time or waits are unknown, and for a
 * supervised host, whose waits would be the binary's own claim.
 */
export function workingTimeOf(report: Report): number | null {
	if (report.timing === 'supervised-host') return null;
	let total = 0;
	for (const task of report.tasks) {
		const working = taskWorkingTime(task);
		if (working === null) return null;
		total += working;
	}
	return total;
}

function taskWorkingTime(task: TaskResult): number | null {
	const time = task.outcome?.time ?? null;
	if (task.wall_ms === null || time === null) return null;
	return Math.max(0, task.wall_ms - time.limiter_wait_ms - time.retry_wait_ms);
}
