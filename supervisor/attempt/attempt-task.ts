import type {ExecutionOutcome} from '../../engine/outcome.js';
import type {Grade, TaskDefinition} from '../../tasks/index.js';

/** What the grader may look at: the workspace and the execution as the supervisor recorded it, never a claim. */
export interface GradeContext {
	workspace: string;
	outcome: ExecutionOutcome;
	/** The task's runtime state folder (journal, messages) before export. */
	stateDir: string;
	timeoutMs: number;
	signal: AbortSignal;
}

/** One task as an attempt runs it, whether the built-in suite or a controller provides it. */
export interface AttemptTask {
	id: string;
	prompt: string;
	tools: string[];
	setup(workspace: string): Promise<void>;
	grade(context: GradeContext): Promise<Grade>;
}

export function builtinAttemptTask(task: TaskDefinition): AttemptTask {
	return {
		id: task.id,
		prompt: task.prompt,
		tools: [...task.tools],
		setup: workspace => task.setup(workspace),
		grade: context => task.grade(context.workspace, {timeoutMs: context.timeoutMs, signal: context.signal, finalText: context.outcome.final_text}),
	};
}
