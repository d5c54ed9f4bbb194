import type {Plan} from './plan-schema.js';

/** A workspace larger than this is a runaway, not a coding task's work; it lives on a tmpfs (memory) by default. */
export const defaultWorkspaceLimitBytes = 256 * 1024 ** 2;
/** Per process of a task: room for a test suite or an agent (JavaScriptCore, in a Bun-built agent, shrinks its heap and collects far more often under 2 GiB), not for one task to take the machine's memory. */
export const defaultMemoryLimitBytes = 4 * 1024 ** 3;

/** What bounds one task beyond its steps and deadline, as the plan froze it (the defaults for a plan frozen without). */
export interface TaskLimits {
	workspaceBytes: number;
	memoryBytes: number;
}

export function taskLimitsOf(plan: Pick<Plan, 'budgets'>): TaskLimits {
	return {
		workspaceBytes: plan.budgets.workspace_limit_bytes ?? defaultWorkspaceLimitBytes,
		memoryBytes: plan.budgets.memory_limit_bytes ?? defaultMemoryLimitBytes,
	};
}

/** `workspace 256 MiB, memory 4096 MiB per process`: as the freeze summary prints it. */
export function taskLimitsText(limits: TaskLimits): string {
	return `workspace ${mebibytes(limits.workspaceBytes)}, memory ${mebibytes(limits.memoryBytes)} per process`;
}

function mebibytes(bytes: number): string {
	const mib = bytes / 1024 ** 2;
	return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
