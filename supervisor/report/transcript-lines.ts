import {z} from 'zod';

/** One record of messages.jsonl as the page shows it: who spoke, what, and which tools were called or answered. */
export const TranscriptLine = z.object({
	role: z.string(),
	step: z.number().nullable(),
	content: z.string().nullable(),
	calls: z.array(z.object({name: z.string(), arguments: z.string()})),
	tool: z.string().nullable(),
	is_error: z.boolean(),
	/** Set on records a plugin caused, e.g. a step policy's stop. */
	provenance: z.string().nullable(),
});
export type TranscriptLine = z.infer<typeof TranscriptLine>;

// Read loosely: the page shows what an engine of any version wrote, and only these fields.
const MessageRecord = z.object({
	message: z.object({
		role: z.string(),
		content: z.string().nullable().optional(),
		step_index: z.number().nullable().optional(),
		tool_calls: z.array(z.object({name: z.string(), arguments: z.string()}).loose()).optional(),
		tool_name: z.string().optional(),
		is_error: z.boolean().optional(),
		provenance: z.object({plugin: z.string(), reason: z.string()}).loose().optional(),
	}).loose(),
}).loose();

export function transcriptLine(record: unknown): TranscriptLine | null {
	const parsed = MessageRecord.safeParse(record);
	if (!parsed.success) return null;
	const message = parsed.data.message;
	return {
		role: message.role,
		step: message.step_index ?? null,
		content: message.content ?? null,
		calls: (message.tool_calls ?? []).map(call => ({name: call.name, arguments: call.arguments})),
		tool: message.tool_name ?? null,
		is_error: message.is_error ?? false,
		provenance: message.provenance ? `${message.provenance.plugin}: ${message.provenance.reason}` : null,
	};
}
