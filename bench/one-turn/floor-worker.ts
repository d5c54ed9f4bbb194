import {writeFile} from 'node:fs/promises';
import {oneTurnRequest} from './config.js';

export interface FloorJob {
	url: string;
	file: string;
}

const body = JSON.stringify(oneTurnRequest);

/** The floor's piscina worker: the engine's chat-completions call to the same kind of endpoint, its answer written to one file. */
export default async function floorTask(job: FloorJob): Promise<void> {
	const response = await fetch(`${job.url}/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json'}, body});
	const text = await response.text();
	if (!response.ok) throw new Error(`floor call failed with ${response.status}: ${text}`);
	await writeFile(job.file, text);
}
