import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {z} from 'zod';
import {builtinAgent, parseHarness, type Harness} from '../../harness/index.js';
import {InputError} from '../input-error.js';
import {resolveSelection} from '../plan/task-selection.js';
import {SearchReport} from './search-report.js';

export class SearchInputError extends InputError {
	constructor(readonly reason: 'root' | 'suite' | 'seeds' | 'search-report', message: string) {
		super(message);
	}
}

/**
 * The root harness: `builtin` (the built-in agent), or a file holding a Harness. A cartridge folder is the seam
 * for later: once cartridges load into a Harness, this is where one is read.
 */
export async function readRoot(root: string): Promise<{harness: Harness; name: string}> {
	if (root === 'builtin') return {harness: builtinAgent, name: 'builtin'};
	const text = await readFile(root, 'utf8').catch((error: Error) => {
		throw new SearchInputError('root', `cannot read the root harness ${root}: ${error.message}`);
	});
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw new SearchInputError('root', `the root harness ${root} is not JSON`);
	}
	const parsed = parseHarness(value);
	if (!parsed.ok) throw new SearchInputError('root', `the root harness ${root} is not a harness-lab/harness@1 value: ${parsed.problem}`);
	return {harness: parsed.harness, name: root};
}

/** The suite: `all` built-in tasks or a comma list of their ids, in order. */
export function readSuite(suite: string): string[] {
	try {
		return resolveSelection(suite).map(task => task.id);
	} catch (error) {
		throw new SearchInputError('suite', `--suite: ${(error as Error).message}`);
	}
}

/** `--seeds N`: replicates on seeds 1..N. */
export function readSeeds(text: string): number[] {
	const count = Number(text);
	if (!Number.isSafeInteger(count) || count < 1 || count > 100) throw new SearchInputError('seeds', `--seeds ${text} is not a whole number from 1 to 100`);
	return Array.from({length: count}, (_, index) => index + 1);
}

/** The report of a search folder, checked against its schema. */
export async function readSearchReport(dir: string): Promise<SearchReport> {
	const path = join(dir, 'search-report.json');
	let value: unknown;
	try {
		value = JSON.parse(await readFile(path, 'utf8'));
	} catch (error) {
		throw new SearchInputError('search-report', `cannot read ${path}: ${(error as Error).message}`);
	}
	const parsed = SearchReport.safeParse(value);
	if (!parsed.success) throw new SearchInputError('search-report', `${path} is not a harness-lab/search-report@1 document: ${z.prettifyError(parsed.error)}`);
	return parsed.data;
}
