import type {AgentCollected, AgentOutputs, TrajectoryMessage} from '../../adapter-contract.js';
import {count, usageClaim} from '../usage-claim.js';
import {codexEvents, type CodexItem} from './events.js';

/**
 * Codex's completed items as harness-lab's trajectory: its messages as assistant text, each command, file change or
 * MCP call as an assistant call and its result. Its usage comes per user turn (summed over that turn's requests),
 * so the claim's `turns` counts Codex's turns, not its requests.
 */
export function collect(outputs: AgentOutputs): AgentCollected {
	const {items, usages} = codexEvents(outputs.stdout);
	const messages = items.flatMap(messagesOf);
	const texts = items.filter(item => item.type === 'agent_message' && typeof item.text === 'string');
	return {
		messages,
		usageClaim: usageClaim(usages.map(usage => ({input: count(usage.input_tokens), output: count(usage.output_tokens), cacheRead: count(usage.cached_input_tokens), cacheWrite: count(usage.cache_write_input_tokens), costUsd: null}))),
		finalText: texts.length === 0 ? null : String(texts.at(-1)!.text),
	};
}

function messagesOf(item: CodexItem): TrajectoryMessage[] {
	if (item.type === 'agent_message') return [{role: 'assistant', content: String(item.text ?? '')}];
	const call = callOf(item);
	if (call === null) return [];
	return [
		{role: 'assistant', content: null, tool_calls: [{id: item.id, name: call.name, arguments: JSON.stringify(call.args)}]},
		{role: 'tool', content: call.output, tool_call_id: item.id},
	];
}

function callOf(item: CodexItem): {name: string; args: unknown; output: string} | null {
	if (item.type === 'command_execution') return {name: 'exec_command', args: {cmd: item.command}, output: String(item.aggregated_output ?? '')};
	if (item.type === 'file_change') return {name: 'apply_patch', args: {changes: item.changes}, output: String(item.status ?? '')};
	if (item.type === 'mcp_tool_call') return {name: String(item.tool ?? 'mcp_tool_call'), args: item.arguments ?? {}, output: JSON.stringify(item.result ?? item.error ?? null)};
	return null;
}
