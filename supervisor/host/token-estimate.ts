import {encode, loadTokenizer} from '../../scripted/tokenizer.js';
import type {ReportedUsage} from '../../engine/loop/usage-meter.js';
import {collectText} from './turn-response.js';

/** The parts of a request the model reads, by endpoint: the conversation, the instructions, the tools offered. */
const promptFields = ['messages', 'input', 'instructions', 'tools'];

/**
 * The proxy's own count of one turn the provider reported no usage for: the request's prompt and the answer's text
 * through the same tokenizer the scripted provider uses (cl100k, loaded once, on first need). Only an estimate: the
 * provider's own tokenizer and its message framing differ, and cache tokens stay unknown.
 */
export async function estimateUsage(request: Record<string, unknown> | null, output: string[]): Promise<ReportedUsage> {
	await loadTokenizer();
	const prompt: string[] = [];
	for (const field of promptFields) collectText(request?.[field], prompt);
	return {prompt_tokens: count(prompt), completion_tokens: count(output)};
}

const count = (texts: string[]): number => texts.reduce((sum, text) => sum + encode(text).length, 0);
