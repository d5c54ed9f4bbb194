import type {AgentCollected, AgentOutputs, TrajectoryMessage} from '../../adapter-contract.js';
import {count, usageClaim} from '../usage-claim.js';
import {piEvents, type PiContentBlock, type PiMessage} from './events.js';

/** pi's finished messages as harness-lab's trajectory; its usage claim summed over its assistant messages. */
export function collect(outputs: AgentOutputs): AgentCollected {
	const {messages} = piEvents(outputs.stdout);
	const assistants = messages.filter(message => message.role === 'assistant');
	// A request that failed (or was aborted) is no answered turn: pi reports zeros for it, not its tokens.
	const answered = assistants.filter(message => message.stopReason !== 'error' && message.stopReason !== 'aborted');
	const last = assistants.at(-1);
	const finalText = last === undefined ? null : textOf(last.content);
	return {
		messages: messages.flatMap(trajectoryMessage),
		usageClaim: usageClaim(answered.map(turnTokens)),
		finalText: finalText === '' ? null : finalText,
	};
}

function trajectoryMessage(message: PiMessage): TrajectoryMessage[] {
	if (message.role === 'user') return [{role: 'user', content: textOf(message.content)}];
	if (message.role === 'toolResult') return [{role: 'tool', content: textOf(message.content), tool_call_id: message.toolCallId ?? ''}];
	if (message.role !== 'assistant') return [];
	const calls = blocks(message.content).filter(block => block.type === 'toolCall');
	const text = textOf(message.content);
	return [{
		role: 'assistant',
		content: text === '' ? null : text,
		...(calls.length > 0 ? {tool_calls: calls.map(call => ({id: call.id ?? '', name: call.name ?? '', arguments: JSON.stringify(call.arguments ?? {})}))} : {}),
	}];
}

/** pi counts the prompt without its cached part (`input`), the cache apart; the claim counts the whole prompt. Its cost is its own price table's, so none. */
function turnTokens(message: PiMessage) {
	const usage = message.usage ?? {};
	const [input, cacheRead, cacheWrite] = [count(usage.input), count(usage.cacheRead), count(usage.cacheWrite)];
	const prompt = input === null || cacheRead === null || cacheWrite === null ? null : input + cacheRead + cacheWrite;
	return {input: prompt, output: count(usage.output), cacheRead, cacheWrite, costUsd: null};
}

function textOf(content: PiMessage['content']): string {
	if (typeof content === 'string') return content;
	return blocks(content).filter(block => block.type === 'text').map(block => block.text ?? '').join('');
}

function blocks(content: PiMessage['content']): PiContentBlock[] {
	return Array.isArray(content) ? content : [];
}
