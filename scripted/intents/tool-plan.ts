import type {ToolRequest} from '../../tasks/reference/reference-script.js';

/** A reference step as one call of an offered tool, and how its result reads back as the built-in tool's observation. */
export interface MappedCall {
	name: string;
	args: Record<string, unknown>;
	observe(result: string): string;
	/** Whether a call in the history must equal this one in its arguments too (else in its tool's name). */
	exact: boolean;
}

/** How the reference finishes: a call of a finishing tool, a text without tool calls, or null when the request cannot finish. */
export type Finish = {kind: 'call'; name: string; args: Record<string, unknown>} | {kind: 'text'} | null;

/** How the reference's steps are played on the tools one request offers. */
export interface ToolPlan {
	/** The call for the step (0-based: the count of tool results before it), or null when no offered tool can do it. */
	call(request: ToolRequest, step: number): MappedCall | null;
	finish(summary: string): Finish;
}
