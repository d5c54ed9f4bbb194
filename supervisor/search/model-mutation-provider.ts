import OpenAI from 'openai';
import {z} from 'zod';
import {digestBytes} from '../../files/digest.js';
import {PatchOperation, patchOperationNames, patchSchemaVersion, type Harness, type HarnessPatch} from '../../harness/index.js';
import {ProviderContractError, type MutationProvider} from './providers.js';
import type {MutationRequest} from './search-record.js';

/** An OpenAI-compatible endpoint, as the search records it (the key's variable name, never the key). */
export interface ModelEndpoint {
	base_url: string;
	model: string;
	api_key_env: string | null;
}

/** What the model is told; its digest is part of the provider's binding, so a changed prompt is a different provider. */
const instructions = [
	'You improve an agent harness by proposing one patch. You are given the base harness (its editable parts) and',
	'feedback about how it ran: per replicate, the share of the suite that passed (null when withheld) and each task\'s',
	'turns, tokens and wall time, plus comparisons between harnesses. You are never told which task passed.',
	'Answer with one JSON object and nothing else, either',
	'{"operations": [...], "rationale": "why this should help"} or {"none": "why you have nothing to propose"}.',
	'Operations (use only the allowed ones):',
	'{"op":"set_system_instructions","system":"..."}',
	'{"op":"set_task_template","template":{"text":"... {{prompt}} ...","variables":["prompt"]}} (the same variables as the base)',
	'{"op":"set_tool_description","tool":"<a defined tool>","description":"..."}',
	'{"op":"set_enabled_tools","enabled":["..."]} (only a subset of the enabled tools; nothing can be enabled)',
	'{"op":"set_context_policy","history":"full"}',
	'{"op":"set_stopping_limits","max_steps":N,"deadline_ms":N} (within the ceilings; either may be left out)',
	'Do not repeat a harness the search already has, nor a patch that was refused.',
].join('\n');

const Reply = z.union([
	z.object({operations: z.array(PatchOperation).min(1), rationale: z.string()}).strict(),
	z.object({none: z.string()}).strict(),
]);

/**
 * The mutation provider backed by a model: its prompt carries the request (which holds only provider-safe
 * feedback) and the base's editable parts; its reply is parsed into a typed patch, or the provider broke its contract.
 */
export function modelMutationProvider(endpoint: ModelEndpoint): MutationProvider {
	const apiKey = endpoint.api_key_env === null ? 'unused' : process.env[endpoint.api_key_env] ?? '';
	const client = new OpenAI({baseURL: endpoint.base_url, apiKey, maxRetries: 0});
	return {
		binding: modelMutationBinding(endpoint),
		callsModel: true,
		operations: patchOperationNames,
		async mutate(request, base, gate) {
			const text = await gate.call(`round ${request.round} attempt ${request.attempt}`, async () => {
				const completion = await client.chat.completions.create({model: endpoint.model, temperature: 0, messages: [{role: 'system', content: instructions}, {role: 'user', content: promptOf(request, base)}]});
				return {value: completion.choices[0]?.message?.content ?? '', tokens: completion.usage?.total_tokens ?? null};
			});
			return patchOfReply(text, request);
		},
	};
}

export function modelMutationBinding(endpoint: ModelEndpoint): {kind: string; version: number; config: Record<string, string>} {
	return {kind: 'openai-compatible-mutation', version: 1, config: {base_url: endpoint.base_url, model: endpoint.model, instructions: digestBytes(instructions)}};
}

/** The user message: the request as recorded, and the parts of the base a patch may change. */
function promptOf(request: MutationRequest, base: Harness): string {
	const editable = {
		system: base.instructions.system,
		task_template: base.task_template,
		tools: base.tools.map(tool => ({name: tool.name, description: tool.description})),
		enabled_tools: base.enabled_tools,
		context: base.context,
		limits: base.limits,
	};
	return JSON.stringify({request, base: editable});
}

/** The reply's JSON object as a patch on the request's base, or null; anything else breaks the contract (its text is not repeated). */
function patchOfReply(text: string, request: MutationRequest): HarnessPatch | null {
	const start = text.indexOf('{');
	const end = text.lastIndexOf('}');
	let value: unknown = null;
	try {
		value = start < 0 ? null : JSON.parse(text.slice(start, end + 1));
	} catch {
		value = null;
	}
	const parsed = Reply.safeParse(value);
	if (!parsed.success) throw new ProviderContractError(`the model's reply is not a patch (${parsed.error.issues[0]?.path.join('.') || 'reply'}: ${parsed.error.issues[0]?.code ?? 'invalid'})`);
	if ('none' in parsed.data) return null;
	return {schema: patchSchemaVersion, base: request.base, operations: parsed.data.operations, rationale: parsed.data.rationale};
}
