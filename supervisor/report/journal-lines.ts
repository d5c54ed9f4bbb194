import {z} from 'zod';

/** One journal.jsonl record as a timeline line: its kind, when, and a one-line summary (full request bodies stay in the file). */
export const JournalLine = z.object({
	seq: z.number().nullable(),
	type: z.string(),
	t_ms: z.number().nullable(),
	summary: z.string(),
});
export type JournalLine = z.infer<typeof JournalLine>;

const JournalRecord = z.object({seq: z.number().optional(), type: z.string(), t_ms: z.number().optional()}).loose();

// A request repeats the whole conversation the transcript already shows; its size is what the timeline needs.
const summaries: Record<string, (record: Record<string, unknown>) => string> = {
	start: record => `task ${text(record.task_id)}, model ${text(field(record.provider, 'model'))}, max ${text(record.max_steps)} steps, timeout ${text(record.timeout_ms)} ms`,
	request: record => `step ${text(record.step_index)} attempt ${text(record.attempt)}: ${count(field(record.body, 'messages'))} messages, ${count(field(record.body, 'tools'))} tools`,
	response: record => `step ${text(record.step_index)}: HTTP ${text(record.status)}${usageOf(field(record.body, 'usage'))}`,
	// The transcript shows calls and results in full; the timeline says which and how large.
	tool_call: record => `${text(record.name)} ${clip(text(record.arguments), 120)}`,
	tool_result: record => `${text(record.name)}${record.is_error === true ? ' (error)' : ''}: ${text(record.content).length} characters${field(record.process, 'exit_code') === undefined ? '' : `, exit ${text(field(record.process, 'exit_code'))}`}`,
	end: record => `outcome ${text(field(record.outcome, 'status'))}${field(record.outcome, 'reason') ? ` (${text(field(record.outcome, 'reason'))})` : ''}`,
};

export function journalLine(record: unknown): JournalLine | null {
	const parsed = JournalRecord.safeParse(record);
	if (!parsed.success) return null;
	const {seq, type, t_ms: at, ...rest} = parsed.data;
	const summarize = summaries[type] ?? ((fields: Record<string, unknown>) => clip(JSON.stringify(withoutTime(fields)), 500));
	return {seq: seq ?? null, type, t_ms: at ?? null, summary: summarize(rest)};
}

function withoutTime(fields: Record<string, unknown>): Record<string, unknown> {
	const {at: _at, ...rest} = fields;
	return rest;
}

function field(value: unknown, key: string): unknown {
	return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

function text(value: unknown): string {
	if (value === undefined || value === null) return '?';
	return typeof value === 'string' ? value : JSON.stringify(value);
}

function count(value: unknown): string {
	return Array.isArray(value) ? String(value.length) : '0';
}

function usageOf(usage: unknown): string {
	if (usage === undefined || usage === null) return '';
	return `, ${text(field(usage, 'prompt_tokens'))} in / ${text(field(usage, 'completion_tokens'))} out tokens`;
}

function clip(value: string, max: number): string {
	return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}
