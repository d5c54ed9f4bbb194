import {z} from 'zod';
import type {ReferenceScript} from './reference/reference-script.js';

/** An independent grader's verdict on a workspace; `score` is null when the task has no graded scale. */
export const Grade = z.object({
	passed: z.boolean(),
	score: z.number().min(0).max(1).nullable(),
	details: z.string(),
});
export type Grade = z.infer<typeof Grade>;

export interface GradeOptions {
	timeoutMs: number;
	signal?: AbortSignal;
	/** The agent's final answer as the supervisor recorded it (the work product, never a verdict); null when none. */
	finalText?: string | null;
	/** Variables the agent's code must not inherit when the grader runs it (the provider's API key). */
	secretEnv?: string[];
}

/** One built-in task: its data, its independent grader and the scripted reference behaviour. */
export interface TaskDefinition {
	id: string;
	title: string;
	/** The user message the agent receives. */
	prompt: string;
	/** Executables the task needs on PATH, e.g. ['node']. */
	tools: string[];
	/** Absolute paths of the task's own files (definition, reference, setup and expected data), for digests. */
	sourceFiles(): string[];
	/** Copies the task's files into an existing, empty workspace. */
	setup(workspace: string): Promise<void>;
	/** Inspects the workspace, never the agent's claims. */
	grade(workspace: string, options: GradeOptions): Promise<Grade>;
	/** What the scripted provider plays for this task. */
	reference: ReferenceScript;
}
