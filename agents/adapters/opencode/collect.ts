import type {AgentCollected, AgentOutputs, TrajectoryMessage} from '../../adapter-contract.js';
import {count, usageClaim} from '../usage-claim.js';
import {isRecord, opencodeEvents, type OpencodeStep} from './events.js';

/** Each of opencode's steps as an assistant message and its tools' results; its claim summed over finished steps (its title request is not among them). */
export function collect(outputs: AgentOutputs): AgentCollected {
	const {steps} = opencodeEvents(outputs.stdout);
	const finished = steps.filter(step => step.reason !== null);
	const last = steps.at(-1);
	return {
		messages: steps.flatMap(messagesOf),
		usageClaim: usageClaim(finished.map(tokensOf)),
		finalText: last !== undefined && last.text !== '' ? last.text : null,
	};
}

function messagesOf(step: OpencodeStep): TrajectoryMessage[] {
	const assistant: TrajectoryMessage = {
		role: 'assistant',
		content: step.text === '' ? null : step.text,
		...(step.calls.length > 0 ? {tool_calls: step.calls.map(call => ({id: call.id, name: call.tool, arguments: JSON.stringify(call.input)}))} : {}),
	};
	return [assistant, ...step.calls.map(call => ({role: 'tool' as const, content: call.output, tool_call_id: call.id}))];
}

/** opencode counts the prompt without its cached part (`input`), the cache apart; the claim counts the whole prompt. */
function tokensOf(step: OpencodeStep) {
	const tokens = step.tokens ?? {};
	const cache = isRecord(tokens.cache) ? tokens.cache : {};
	const [input, cacheRead, cacheWrite] = [count(tokens.input), count(cache.read), count(cache.write)];
	const prompt = input === null || cacheRead === null || cacheWrite === null ? null : input + cacheRead + cacheWrite;
	return {input: prompt, output: count(tokens.output), cacheRead, cacheWrite, costUsd: null};
}
