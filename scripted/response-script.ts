import {readFile} from 'node:fs/promises';
import {z} from 'zod';
import {digestJson, type Digest} from '../files/digest.js';

/*
 * A response script: per task (or case) id, the ordered model turns the scripted provider answers, each in the
 * chat-completions assistant-message shape. Turn n answers the conversation's n-th request.
 *
 *   {"schema": "harness-lab/response-script@1",
 *    "tasks": {"profit_math": [
 *      {"content": null, "tool_calls": [{"type": "function", "function": {"name": "publish_report", "arguments": "{\"revenue\":120,\"cost\":80}"}}]},
 *      {"tool_calls": [{"type": "function", "function": {"name": "done", "arguments": {"summary": "published"}}}]}]}}
 *
 * `arguments` is the JSON text the API sends, or (for people writing scripts) the object itself.
 */

export const responseScriptSchema = 'harness-lab/response-script@1';

export const ScriptToolCall = z.object({
	id: z.string().optional(),
	type: z.literal('function').default('function'),
	function: z.object({
		name: z.string().min(1),
		arguments: z.union([z.string(), z.record(z.string(), z.json())]).transform(value => (typeof value === 'string' ? value : JSON.stringify(value))),
	}).strict(),
}).strict();

export const ScriptTurn = z.object({
	role: z.literal('assistant').optional(),
	content: z.string().nullable().default(null),
	tool_calls: z.array(ScriptToolCall).default([]),
}).strict().refine(turn => turn.content !== null || turn.tool_calls.length > 0, 'a turn has content, tool calls, or both');
export type ScriptTurn = z.infer<typeof ScriptTurn>;

export const ResponseScript = z.object({
	schema: z.literal(responseScriptSchema),
	tasks: z.record(z.string().min(1), z.array(ScriptTurn)),
	/** Ids of `tasks` that are not tasks or cases, with the prompt that opens their conversation (e.g. a judge's question). */
	prompts: z.record(z.string().min(1), z.string().min(1)).optional(),
}).strict();
export type ResponseScript = z.infer<typeof ResponseScript>;

/** A conversation the scripted provider plays from a script: recognized by its prompt (the first user message). */
export interface ScriptedConversation {
	id: string;
	prompt: string;
	turns: readonly ScriptTurn[];
}

/** The digest a run records for its script (part of the provider's identity). */
export function scriptDigest(script: ResponseScript): Digest {
	return digestJson(script);
}

/** Reads a response script file: the script and its digest, or why it cannot be used. */
export async function readResponseScript(path: string): Promise<{ok: true; script: ResponseScript; digest: Digest} | {ok: false; problem: string}> {
	let value: unknown;
	try {
		value = JSON.parse(await readFile(path, 'utf8'));
	} catch (error) {
		return {ok: false, problem: `the response script ${path} cannot be read as JSON: ${(error as Error).message}`};
	}
	const parsed = ResponseScript.safeParse(value);
	if (!parsed.success) {
		return {ok: false, problem: `the response script ${path} is not valid: ${parsed.error.issues.map(issue => `${issue.path.join('.') || 'script'}: ${issue.message}`).join('; ')}`};
	}
	return {ok: true, script: parsed.data, digest: scriptDigest(parsed.data)};
}
