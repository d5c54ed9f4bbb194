import type {LoadedCartridge} from '../../../cartridges/index.js';
import type {ExecutionOutcome} from '../../../engine/outcome.js';
import type {Harness} from '../../../harness/index.js';
import type {Grade, TaskDefinition} from '../../../tasks/index.js';

/** What the grader may look at: the workspace and the execution as the supervisor recorded it, never a claim. */
export interface GradeContext {
	workspace: string;
	outcome: ExecutionOutcome;
	/** The task's runtime state folder (journal, messages) before export. */
	stateDir: string;
	deadlineMs: number;
	signal: AbortSignal;
	/** The task's folder in the evidence directory, where a grader may keep its own record (none outside an attempt). */
	taskDir?: string;
	/** The execution's wall time as the supervisor measured it; null when it measured none (the execution never started). */
	wallMs: number | null;
	/** The attempt's paths a grader's sandbox must not show (its evidence, its runtime state). */
	hidden?: string[];
}

/** The agent a task runs with, when it is not the attempt's built-in one: a cartridge's Harness and its tools' code. */
export interface TaskAgent {
	harness: Harness;
	cartridge: {data: LoadedCartridge; case_id: string};
}

/** One task as an attempt runs it, whether the built-in suite or a controller provides it. */
export interface AttemptTask {
	id: string;
	prompt: string;
	tools: string[];
	setup(workspace: string): Promise<void>;
	grade(context: GradeContext): Promise<Grade>;
	agent?: TaskAgent;
	/** The task's own deadline (a Harbor task's [agent] timeout_sec); absent: the plan's. */
	deadlineMs?: number;
	/** The task's own memory limit per process (a Harbor task's memory_mb); absent: the plan's. */
	memoryLimitBytes?: number;
	/** Folders of the task's evidence its grader writes (a Harbor verifier's /logs/verifier): they count with the workspace against its limit while it grades. */
	graderFolders?(taskDir: string): string[];
}

export function builtinAttemptTask(task: TaskDefinition): AttemptTask {
	return {
		id: task.id,
		prompt: task.prompt,
		tools: [...task.tools],
		setup: workspace => task.setup(workspace),
		grade: context => task.grade(context.workspace, {deadlineMs: context.deadlineMs, signal: context.signal, finalText: context.outcome.final_text, hidden: context.hidden}),
	};
}
