import {relative} from 'node:path';
import {describeAttempt} from './describe-attempt.js';
import {describeDecision} from './describe-decision.js';
import {findEvidence} from './find-evidence.js';
import type {ListingLine} from './listing-line.js';

/** Every attempt and decision under `root`, one line each, as they are found (hlab ls). */
export async function* listEvidence(root: string): AsyncGenerator<ListingLine> {
	for await (const found of findEvidence(root)) {
		const path = relative(root, found.path) || '.';
		if (found.kind === 'attempt') yield await describeAttempt(found.path, path);
		else if (found.kind === 'decision') yield await describeDecision(found.path, path);
		else yield {kind: 'unreadable', path, plan: null, side: null, candidate: null, status: null, when: null, problem: found.problem};
	}
}
