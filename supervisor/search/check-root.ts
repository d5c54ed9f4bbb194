import {ceilingProblems, type Harness} from '../../harness/index.js';
import {InputError} from '../input-error.js';
import type {SearchPolicy} from './policy-schema.js';

/** The root and the policy do not fit together; nothing ran. */
export class SearchRootError extends InputError {
	readonly reason = 'search-root';
}

/**
 * Refuses, before anything runs, a root the policy's ceilings already forbid (every patch of it would be refused,
 * after its evaluations were spent) and authorized tools the root does not have (a patch cannot add a tool, so such a
 * name can only be a mistake).
 */
export function checkRoot(policy: SearchPolicy, root: Harness): void {
	const over = ceilingProblems(root, policy.ceilings);
	const known = new Set(root.tools.map(tool => tool.name));
	const unknown = policy.authorized_tools.filter(name => !known.has(name));
	const problems = [
		...(over.length === 0 ? [] : [`the root harness is over the policy's ceilings: ${over.join(', ')}`]),
		...(unknown.length === 0 ? [] : [`authorized_tools names ${unknown.length === 1 ? 'a tool' : 'tools'} the root harness does not have: ${unknown.join(', ')} (it has ${[...known].join(', ')})`]),
	];
	if (problems.length > 0) throw new SearchRootError(problems.join('; '));
}
