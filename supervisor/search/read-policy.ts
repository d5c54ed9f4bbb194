import {readFile} from 'node:fs/promises';
import {z} from 'zod';
import {InputError} from '../input-error.js';
import {SearchPolicy} from './policy-schema.js';

export class PolicyError extends InputError {
	constructor(readonly reason: 'unreadable' | 'not-authorized' | 'invalid', message: string) {
		super(message);
	}
}

/** The policy in a file, or a PolicyError; a policy that does not say `autonomous_search: "authorized"` is refused first. */
export async function readPolicy(path: string): Promise<SearchPolicy> {
	let value: unknown;
	try {
		value = JSON.parse(await readFile(path, 'utf8'));
	} catch (error) {
		throw new PolicyError('unreadable', `cannot read the search policy ${path}: ${(error as Error).message}`);
	}
	return parsePolicy(value, path);
}

export function parsePolicy(value: unknown, name = 'the search policy'): SearchPolicy {
	const authorization = (value as {autonomous_search?: unknown} | null)?.autonomous_search;
	if (authorization !== 'authorized') throw new PolicyError('not-authorized', `${name} does not authorize the search: autonomous_search must be "authorized" (it is ${authorization === undefined ? 'absent' : JSON.stringify(authorization)})`);
	const parsed = SearchPolicy.safeParse(value);
	if (!parsed.success) throw new PolicyError('invalid', `${name} is not a harness-lab/search-policy@1 document: ${z.prettifyError(parsed.error)}`);
	return parsed.data;
}
