import OpenAI from 'openai';
import {keyOptions} from '../engine/provider/openai-client.js';
import type {AskModel} from '../sdk/cartridge.js';
import type {GraderResult, JudgeEndpoint} from './evaluation-protocol.js';

type JudgeExchange = GraderResult['judge_exchanges'][number];

/** The judge's answer may take this long; the evaluation process's own deadline bounds it too. */
const judgeTimeoutMs = 60_000;

/**
 * What a model grader's `ask` does, in the evaluation process: one chat-completions request to the judge endpoint
 * with the question as the user message. Every request and answer is kept for the record; the key never is.
 */
export function judgeAsker(endpoint: JudgeEndpoint, exchanges: JudgeExchange[]): AskModel {
	return async prompt => {
		const request = {model: endpoint.model, messages: [{role: 'user' as const, content: prompt}]};
		const key = endpoint.api_key_env === null ? null : process.env[endpoint.api_key_env];
		if (key === undefined || key === '') throw new Error(`the judge's API key variable ${endpoint.api_key_env} is not set`);
		const client = new OpenAI({baseURL: endpoint.base_url, maxRetries: 0, timeout: judgeTimeoutMs, ...keyOptions(key)});
		try {
			const completion = await client.chat.completions.create(request);
			exchanges.push({request, status: 200, response: JSON.parse(JSON.stringify(completion)) as JudgeExchange['response'], error: null});
			const text = completion.choices[0]?.message.content;
			if (typeof text !== 'string') throw new Error('the judge answered no text');
			return text;
		} catch (error) {
			const status = error instanceof OpenAI.APIError ? error.status ?? null : null;
			if (exchanges.at(-1)?.request !== request) exchanges.push({request, status, response: null, error: (error as Error).message});
			throw new Error(`the judge model failed: ${(error as Error).message}`, {cause: error});
		}
	};
}
