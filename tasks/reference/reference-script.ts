/** One tool call the reference behaviour makes, with optional assistant text sent alongside it. */
export interface ToolRequest {
	tool: string;
	args: Record<string, unknown>;
	note?: string;
}

/**
 * A task's deterministic reference behaviour: it yields one tool call per model turn, receives the
 * tool result the client sent back for it, and returns the `done` summary. The scripted provider
 * replays it from the start on every request, so what it does next depends on the observations.
 */
export type ReferenceScript = () => Generator<ToolRequest, string, string>;
