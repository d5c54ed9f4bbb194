import type OpenAI from 'openai';

let loading: Promise<typeof OpenAI> | null = null;

/** The official client's class, imported at the first model request: about 150 modules a host worker need not load to start. */
export function loadOpenAI(): Promise<typeof OpenAI> {
	loading ??= import('openai').then(module => module.default);
	return loading;
}

const clients = new Map<string, OpenAI>();

/** One client per endpoint and key in this thread: a client holds only its configuration, so tasks can share it. */
export async function clientFor(baseURL: string, apiKey: string): Promise<OpenAI> {
	const key = `${baseURL}\0${apiKey}`;
	let client = clients.get(key);
	if (client === undefined) {
		const OpenAIClient = await loadOpenAI();
		// Another task of this thread may have made it while the module loaded.
		client = clients.get(key) ?? new OpenAIClient({baseURL, apiKey, maxRetries: 0});
		clients.set(key, client);
	}
	return client;
}
