import {Worker} from 'node:worker_threads';
import type {ScriptedServer} from './server.js';

/**
 * Starts the scripted provider for the built-in tasks in a thread of its own, so that its parsing and
 * tokenizing never hold up the event loop of the process that supervises the tasks.
 */
export async function startScriptedServerThread(): Promise<ScriptedServer> {
	const worker = new Worker(new URL('./server-thread-entry.js', import.meta.url));
	try {
		const url = await new Promise<string>((resolve, reject) => {
			worker.once('message', (message: {url?: string; error?: string}) => (message.url === undefined ? reject(new Error(message.error)) : resolve(message.url)));
			worker.once('error', reject);
			worker.once('exit', code => reject(new Error(`the scripted provider thread ended (status ${code}) before it listened`)));
		});
		worker.removeAllListeners('exit');
		return {url, close: async () => void await worker.terminate()};
	} catch (error) {
		await worker.terminate();
		throw error;
	}
}
