import type OpenAI from 'openai';

let loading: Promise<typeof OpenAI> | null = null;

/** The official client's class, imported at the first model request: about 150 modules a host worker need not load to start. */
export function loadOpenAI(): Promise<typeof OpenAI> {
	loading ??= import('openai').then(module => module.default);
	return loading;
}

const clients = new Map<string, OpenAI>();

/** One client per endpoint and key in this thread (null: send no key): a client holds only its configuration, so tasks can share it. */
export async function clientFor(baseURL: string, apiKey: string | null): Promise<OpenAI> {
	const key = `${baseURL}\0${apiKey ?? ''}`;
	let client = clients.get(key);
	if (client === undefined) {
		const OpenAIClient = await loadOpenAI();
		// Another task of this thread may have made it while the module loaded.
		client = clients.get(key) ?? new OpenAIClient({baseURL, maxRetries: 0, ...keyOptions(apiKey)});
		clients.set(key, client);
	}
	return client;
}

/** The client's options for a key; with none, the client still wants one to be built, and its header is removed. */
export function keyOptions(apiKey: string | null): {apiKey: string; defaultHeaders?: Record<string, null>} {
	return apiKey === null ? {apiKey: 'unsent', defaultHeaders: {Authorization: null}} : {apiKey};
}
