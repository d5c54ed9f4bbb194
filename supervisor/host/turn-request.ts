/** The two model endpoints the proxy meters: chat completions, and the Responses API (Codex). */
export type TurnFlavour = 'chat' | 'responses';

/** What an agent is told when the proxy answers for the provider: the OpenAI API's error shape. */
export interface ProxyError {
	status: number;
	body: {error: {message: string; type: 'invalid_request_error'; param: string | null; code: string}};
}

export type CheckedRequest =
	| {ok: true; flavour: TurnFlavour | null; json: Record<string, unknown> | null}
	| {ok: false; refusal: ProxyError; model: string | null};

/** The metered endpoint a request is for, or null when it is none (the model list, ...). */
export function turnFlavour(method: string | undefined, pathname: string): TurnFlavour | null {
	if (method !== 'POST') return null;
	if (pathname.endsWith('/chat/completions')) return 'chat';
	if (pathname.endsWith('/responses')) return 'responses';
	return null;
}

const proxyError = (status: number, message: string, code: string, param: string | null): ProxyError =>
	({status, body: {error: {message, type: 'invalid_request_error', param, code}}});

/**
 * Checks a request before it reaches the provider: a metered request must be a JSON object with its conversation,
 * and any request that names a model must name the plan's; any other model would spend on something the plan did not freeze.
 */
export function checkRequest(flavour: TurnFlavour | null, body: Buffer, planModel: string): CheckedRequest {
	const json = parseObject(body);
	if (json === null) {
		if (flavour === null) return {ok: true, flavour, json: null};
		return {ok: false, refusal: proxyError(400, 'the request body is not a JSON object', 'invalid_json', null), model: null};
	}
	const model = typeof json.model === 'string' ? json.model : null;
	if (model !== planModel && (flavour !== null || 'model' in json)) {
		const asked = model === null ? 'names no model' : `asks for model ${JSON.stringify(model)}`;
		return {ok: false, refusal: proxyError(400, `the request ${asked}; this task may use only ${JSON.stringify(planModel)}`, 'model_not_allowed', 'model'), model};
	}
	if (flavour === 'chat' && !Array.isArray(json.messages)) {
		return {ok: false, refusal: proxyError(400, 'a chat completion needs a messages array', 'missing_messages', 'messages'), model: null};
	}
	if (flavour === 'responses' && typeof json.input !== 'string' && !Array.isArray(json.input)) {
		return {ok: false, refusal: proxyError(400, 'a response needs an input (text or an array of items)', 'missing_input', 'input'), model: null};
	}
	return {ok: true, flavour, json};
}

function parseObject(body: Buffer): Record<string, unknown> | null {
	try {
		const value: unknown = JSON.parse(body.toString('utf8'));
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : null;
	} catch {
		return null;
	}
}
