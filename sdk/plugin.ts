/**
 * The public plugin SDK: what a candidate (a single-file plugin) implements and receives.
 * Plain types and a few constants, so a candidate can import it for types only.
 */

/** The plugin protocol this host speaks; `initialize()` must answer with it. */
export const pluginProtocolVersion = 1;

/** The capabilities the host offers, with their contract version. */
export const capabilityIds = {
	stepPolicy: 'agent.step.policy',
	requestTransform: 'agent.request.transform',
} as const;

export type CapabilityId = typeof capabilityIds[keyof typeof capabilityIds];
export type CapabilityKind = 'decision' | 'transform';

/**
 * What happens when an invocation throws or answers malformed output:
 * `continue` ignores this plugin for the step, `stop` ends the loop with a host-written stop record,
 * `fail` fails the execution. Cancellation always propagates, whatever this says.
 */
export type CapabilityErrorPolicy = 'continue' | 'stop' | 'fail';

/** One capability a plugin declares in `initialize()`. */
export interface CapabilityDeclaration {
	id: CapabilityId;
	kind: CapabilityKind;
	version: 1;
	/** Higher runs first; ties are ordered by plugin id. Default 0. */
	priority?: number;
	/** Default `fail`. */
	on_error?: CapabilityErrorPolicy;
}

/** What the host tells a plugin when it activates it. */
export interface PluginInitializeContext {
	protocol_version: typeof pluginProtocolVersion;
	host: {name: 'harness-lab'; version: string};
	/** The capabilities this host can invoke. */
	offered: readonly {id: CapabilityId; kind: CapabilityKind; version: 1}[];
}

export interface PluginInitializeResult {
	protocol_version: typeof pluginProtocolVersion;
	/** The plugin's id (letters, digits, `.`, `_`, `-`); defaults to the candidate file's base name. */
	id?: string;
	capabilities: CapabilityDeclaration[];
}

export interface CapabilityInvocation<Input = unknown> {
	capability: CapabilityId;
	version: 1;
	input: Input;
	/** Aborted when the execution is cancelled or reaches its deadline. */
	signal: AbortSignal;
}

export interface CapabilityResult<Output = unknown> {
	output: Output;
}

/** The default export of a candidate file. */
export interface RuntimePlugin {
	initialize(context: PluginInitializeContext): PluginInitializeResult | Promise<PluginInitializeResult>;
	invokeCapability(invocation: CapabilityInvocation): CapabilityResult | Promise<CapabilityResult>;
	/** Readiness, checked after activation when a task starts; absent means ready. */
	ready?(): boolean | Promise<boolean>;
}

/** One tool call as the model requested it. */
export interface TranscriptToolCall {
	id: string;
	name: string;
	/** The arguments exactly as the model sent them (JSON text). */
	arguments: string;
}

/** Who wrote a record that did not come from the model: the host stamps the plugin that stopped the loop. */
export interface RecordProvenance {
	plugin: string;
	capability: CapabilityId;
	reason: string;
}

/** One record of the conversation, as policies see it (deeply frozen). */
export interface TranscriptEntry {
	index: number;
	role: 'system' | 'user' | 'assistant' | 'tool';
	content: string | null;
	/** The model step that produced an assistant record or the tool result; null for the task input. */
	step_index: number | null;
	/** Assistant records: the tool calls requested. */
	tool_calls?: readonly TranscriptToolCall[];
	/** Tool records: which call this answers, the tool's name and whether it reported an error. */
	tool_call_id?: string;
	tool_name?: string;
	is_error?: boolean;
	/** Set on records a plugin caused (a policy's stop record). */
	provenance?: RecordProvenance;
}

/** Usage so far; unknown is null, never 0. */
export interface UsageView {
	turns: number;
	input_tokens: number | null;
	output_tokens: number | null;
	cache_read_tokens: number | null;
	cache_write_tokens: number | null;
	total_tokens: number | null;
	cost_usd: number | null;
}

/** `agent.step.policy` v1 input: after input admission, before the request for this step is dispatched. */
export interface AgentStepPolicyInput {
	task_id: string;
	model: string;
	/** 0 for the first model request. */
	step_index: number;
	max_steps: number;
	transcript: readonly TranscriptEntry[];
	usage: Readonly<UsageView>;
	elapsed_ms: number;
	remaining_ms: number;
}

/** A stop must carry a non-empty reason (a short code) and content (shown as an assistant record). */
export type AgentStepPolicyOutput =
	| {stop: false}
	| {stop: true; reason: string; content: string};

/** One message of a chat-completions request. */
export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool';
	content: string | null;
	tool_calls?: {id: string; type: 'function'; function: {name: string; arguments: string}}[];
	tool_call_id?: string;
}

/** A tool as offered to the model (the chat-completions `function` tool shape). */
export interface ToolDefinition {
	type: 'function';
	function: {name: string; description: string; parameters: Record<string, unknown>};
}

/** `agent.request.transform` v1 input: the request about to be sent, when no policy stopped the step. */
export interface AgentRequestTransformInput {
	task_id: string;
	model: string;
	step_index: number;
	messages: readonly ChatMessage[];
	tools: readonly ToolDefinition[];
}

/** Replaces the request's messages for this one request (the transcript itself is unchanged); absent keeps them. */
export interface AgentRequestTransformOutput {
	messages?: ChatMessage[];
}

/** Identity helper that type-checks a plugin object. */
export function definePlugin<T extends RuntimePlugin>(plugin: T): T {
	return plugin;
}
