/** What the bench controller serves: how many one-turn tasks, at what concurrency, with which prompt. */
export interface OneTurnConfig {
	count: number;
	concurrency: number;
	prompt: string;
}

/** The one prompt of every one-turn task; the bench's scripted endpoint answers it with `done` at once. */
export const oneTurnPrompt = 'Benchmark task: there is nothing to change. Call the done tool at once.';

/** The engine's `done` tool, as the floor and the peer offer it (the scripted endpoint refuses a request without it). */
export const doneTool = {
	type: 'function',
	function: {
		name: 'done',
		description: 'Finish the task: call this once the work is complete, with a short summary of what was done.',
		parameters: {type: 'object', properties: {summary: {type: 'string', description: 'What was done'}}, required: ['summary']},
	},
} as const;
