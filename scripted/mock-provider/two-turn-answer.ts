/** The chat completion that plays any two-turn task: first a text-only answer, then a call of the `done` tool. */
export function twoTurnAnswer(body: {model?: unknown; messages?: {role: string}[]}): unknown {
	const step = (body.messages ?? []).filter(message => message.role === 'assistant').length;
	const message = step === 0
		? {role: 'assistant', content: 'Looking at the task.'}
		: {role: 'assistant', content: null, tool_calls: [{id: `call_${step}`, type: 'function', function: {name: 'done', arguments: JSON.stringify({summary: 'finished'})}}]};
	return {
		id: `chatcmpl-${step}`, object: 'chat.completion', model: typeof body.model === 'string' ? body.model : 'mock',
		choices: [{index: 0, finish_reason: step === 0 ? 'stop' : 'tool_calls', message}],
		usage: {prompt_tokens: 50, completion_tokens: 5, total_tokens: 55},
	};
}
