import {readFile} from 'node:fs/promises';
import {CandidatesDecision} from '../compare/candidates-decision-schema.js';
import {Decision} from '../compare/decision-schema.js';
import type {ExperimentLayout} from './experiment-layout.js';

/** The experiment's last line: each candidate with its verdict, read back from the decision file the comparison wrote. */
export async function verdictLine(layout: ExperimentLayout): Promise<string> {
	const json: unknown = JSON.parse(await readFile(layout.decision, 'utf8'));
	const verdicts = layout.candidates.length === 1
		? [Decision.parse(json).decision]
		: CandidatesDecision.parse(json).candidates.map(candidate => candidate.verdict);
	const named = layout.candidates.map((candidate, index) => `${candidate.label} ${(verdicts[index] ?? 'unknown').toUpperCase()}`);
	return `experiment ${layout.out}: ${named.join(', ')} (decision ${layout.decision})`;
}
