import OpenAI from 'openai';
import {z} from 'zod';
import {digestBytes} from '../../files/digest.js';
import type {ModelEndpoint} from './model-mutation-provider.js';
import {ProviderContractError, type SearchProvider} from './providers.js';
import type {Choice, ProviderBinding} from './search-record.js';

const instructions = [
	'You steer a search over agent harnesses. You are given the search context: every node (harness) with provider-safe',
	'feedback per replicate (the share of the suite that passed, null when withheld, and each task\'s turns, tokens and',
	'wall time), comparisons between nodes, the nodes that are exhausted, and what has been spent.',
	'Choose the evaluated, not exhausted node to improve next. Answer with one JSON object and nothing else, either',
	'{"node_id": "node-000", "rationale": "why"} or {"none": "why no node should be improved"}.',
].join('\n');

const Reply = z.union([z.object({node_id: z.string(), rationale: z.string()}).strict(), z.object({none: z.string()}).strict()]);

/** The search provider backed by a model: its prompt is the context (provider-safe by construction); its reply a choice. */
export function modelSearchProvider(endpoint: ModelEndpoint): SearchProvider {
	const apiKey = endpoint.api_key_env === null ? 'unused' : process.env[endpoint.api_key_env] ?? '';
	const client = new OpenAI({baseURL: endpoint.base_url, apiKey, maxRetries: 0});
	return {
		binding: modelSearchBinding(endpoint),
		callsModel: true,
		async select(context, gate) {
			const text = await gate.call(`round ${context.round} selection`, async () => {
				const completion = await client.chat.completions.create({model: endpoint.model, temperature: 0, messages: [{role: 'system', content: instructions}, {role: 'user', content: JSON.stringify(context)}]});
				return {value: completion.choices[0]?.message?.content ?? '', tokens: completion.usage?.total_tokens ?? null};
			});
			return choiceOfReply(text);
		},
	};
}

export function modelSearchBinding(endpoint: ModelEndpoint): ProviderBinding {
	return {kind: 'openai-compatible-search', version: 1, config: {base_url: endpoint.base_url, model: endpoint.model, instructions: digestBytes(instructions)}};
}

function choiceOfReply(text: string): Choice {
	let value: unknown = null;
	try {
		value = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1));
	} catch {
		value = null;
	}
	const parsed = Reply.safeParse(value);
	if (!parsed.success) throw new ProviderContractError('the model\'s reply is not a choice of node');
	return 'none' in parsed.data ? {kind: 'none', reason: parsed.data.none} : {kind: 'base', node_id: parsed.data.node_id, rationale: parsed.data.rationale};
}
