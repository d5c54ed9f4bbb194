import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {Exchange} from './case-record.js';

/** The records of a JSON-lines file; a torn last line (a crash mid-write) is left out. */
async function readLines(path: string): Promise<Record<string, unknown>[]> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch {
		return [];
	}
	return text.split('\n').filter(line => line.trim() !== '').flatMap(line => {
		try {
			return [JSON.parse(line) as Record<string, unknown>];
		} catch {
			return [];
		}
	});
}

/** Every model request of a run with its response or error, in order, from the engine's journal. */
export async function capturedExchanges(stateDir: string): Promise<Exchange[]> {
	const exchanges: Exchange[] = [];
	for (const record of await readLines(join(stateDir, 'journal.jsonl'))) {
		const step = record.step_index as number;
		const attempt = record.attempt as number;
		if (record.type === 'request') exchanges.push({step_index: step, attempt, request: record.body as Exchange['request'], status: null, response: null, error: null});
		const open = exchanges.findLast(entry => entry.step_index === step && entry.attempt === attempt);
		if (!open) continue;
		if (record.type === 'response') Object.assign(open, {status: record.status ?? null, response: record.body ?? null});
		if (record.type === 'request_error') Object.assign(open, {status: record.status ?? null, error: {reason: String(record.reason), message: String(record.message)}});
	}
	return exchanges;
}

/** The conversation as the agent saw it (messages.jsonl), without the journal's bookkeeping. */
export async function trajectory(stateDir: string): Promise<unknown[]> {
	return (await readLines(join(stateDir, 'messages.jsonl'))).map(record => record.message);
}
