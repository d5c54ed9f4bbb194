import {z} from 'zod';

/*
 * The parts of a task's own records a trajectory is made from: messages.jsonl (the engine's records, or an agent's
 * messages in the same shape without the record around them) and, for the engine, the journal's start and responses.
 */

const Message = z.object({
	role: z.enum(['system', 'user', 'assistant', 'tool']),
	content: z.string().nullable(),
	step_index: z.number().int().nullable().optional(),
	tool_calls: z.array(z.object({id: z.string(), name: z.string(), arguments: z.string()})).optional(),
	tool_call_id: z.string().optional(),
	tool_name: z.string().optional(),
	is_error: z.boolean().optional(),
	provenance: z.object({plugin: z.string(), capability: z.string(), reason: z.string()}).optional(),
});
export type TaskMessage = z.infer<typeof Message> & {at: string | null};

const Timestamp = z.iso.datetime({offset: true});
const MessageRecord = z.object({type: z.literal('message'), at: z.string(), message: Message});

const Start = z.object({
	type: z.literal('start'),
	task_id: z.string(),
	provider: z.object({model: z.string(), reasoning_effort: z.string().nullable().optional()}),
	harness: z.object({name: z.string(), fingerprint: z.object({digest: z.string()})}).nullable(),
});
export type JournalStart = z.infer<typeof Start>;

const Count = z.number().int().nonnegative().nullish();
const Response = z.object({
	type: z.literal('response'),
	at: z.string(),
	step_index: z.number().int(),
	body: z.object({
		model: z.string().nullish(),
		usage: z.object({
			prompt_tokens: Count,
			completion_tokens: Count,
			prompt_tokens_details: z.object({cached_tokens: Count, cache_write_tokens: Count}).nullish(),
			cost: z.number().nonnegative().nullish(),
		}).nullish(),
	}),
});
export type JournalResponse = z.infer<typeof Response>;

const Request = z.object({type: z.literal('request'), at: z.string(), step_index: z.number().int()});

export interface TaskRecords {
	messages: TaskMessage[];
	start: JournalStart | null;
	/** The answer each model step was given (the last one, after retries), by step index. */
	responses: Map<number, JournalResponse>;
	/** When each step's first request left. */
	requestedAt: Map<number, string>;
}

/** Reads the two files' text; a line that is not one of the shapes above is skipped (the trajectory is an export, not a check). */
export function readTaskRecords(messagesText: string, journalText: string | null): TaskRecords {
	const records: TaskRecords = {messages: readMessages(messagesText), start: null, responses: new Map(), requestedAt: new Map()};
	for (const line of (journalText ?? '').split('\n')) readJournalLine(line, records);
	return records;
}

function readMessages(text: string): TaskMessage[] {
	return text.split('\n').filter(line => line.trim() !== '').flatMap((line): TaskMessage[] => {
		const value = parseLine(line);
		const record = MessageRecord.safeParse(value);
		// A time that is no ISO time is left out rather than carried into a trajectory the schema would refuse.
		if (record.success) return [{...record.data.message, at: Timestamp.safeParse(record.data.at).success ? record.data.at : null}];
		const bare = Message.safeParse(value);
		return bare.success ? [{...bare.data, at: null}] : [];
	});
}

/** The journal's requests carry the whole conversation each: only their head is read, never parsed whole. */
function readJournalLine(line: string, records: TaskRecords): void {
	const head = line.slice(0, 120);
	if (head.includes('"type":"request"')) {
		const request = Request.safeParse(parseLine(`${line.slice(0, line.indexOf(',"body":'))}}`));
		if (request.success && !records.requestedAt.has(request.data.step_index)) records.requestedAt.set(request.data.step_index, request.data.at);
		return;
	}
	if (head.includes('"type":"response"')) {
		const response = Response.safeParse(parseLine(line));
		if (response.success) records.responses.set(response.data.step_index, response.data);
		return;
	}
	if (head.includes('"type":"start"')) {
		const start = Start.safeParse(parseLine(line));
		if (start.success) records.start = start.data;
	}
}

function parseLine(line: string): unknown {
	try {
		return JSON.parse(line);
	} catch {
		return null;
	}
}
