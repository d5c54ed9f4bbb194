import {writeFile} from 'node:fs/promises';
import {doneTool} from './config.js';

export interface FloorJob {
	url: string;
	prompt: string;
	file: string;
}

/** The floor's piscina worker: one chat-completions call to the same endpoint, its answer written to one file. */
export default async function floorTask(job: FloorJob): Promise<void> {
	const response = await fetch(`${job.url}/chat/completions`, {
		method: 'POST',
		headers: {'content-type': 'application/json'},
		body: JSON.stringify({model: 'reference', messages: [{role: 'user', content: job.prompt}], tools: [doneTool]}),
	});
	const body = await response.text();
	if (!response.ok) throw new Error(`floor call failed with ${response.status}: ${body}`);
	await writeFile(job.file, body);
}
