import type {CollectorResult, GraderResult} from './evaluation-protocol.js';
import type {LoadedCartridge} from './loaded-cartridge.js';
import type {ExecutionOutcome} from '../engine/index.js';
import type {Failure, Verdict} from './case-record.js';

/** The mark that makes a grader fail-closed: it must run and pass. */
export const requiredMark = 'required';

export interface CaseEvidence {
	outcome: ExecutionOutcome;
	collectors: CollectorResult[];
	graders: GraderResult[];
	/** Evaluation processes that gave no usable answer. */
	processProblems: {module: string; problem: string}[];
	threshold: number | null;
}

const label = (result: {module: string; name: string}): string => `${result.module}#${result.name}`;

/**
 * A case passes only when everything it needs ran and passed: a required grader that failed, skipped or errored,
 * any grader or collector error, a malformed answer, a run that failed, or a score below the threshold fails it.
 */
export function caseVerdict(evidence: CaseEvidence): Verdict {
	const failures: Failure[] = [];
	const add = (reason: Failure['reason'], detail: string): void => {
		failures.push({reason, detail});
	};
	if (evidence.outcome.status === 'failed') add('run_failed', `the agent's run failed (${evidence.outcome.reason ?? 'unknown'}): ${evidence.outcome.message ?? ''}`.trim());
	for (const problem of evidence.processProblems) add('evaluation_process', `${problem.module}: ${problem.problem}`);
	for (const result of evidence.collectors) {
		if (result.status === 'error') add('collector_error', `${label(result)} threw: ${result.error ?? ''}`);
		if (result.status === 'malformed') add('collector_malformed', `${label(result)}: ${result.error ?? ''}`);
	}
	for (const result of evidence.graders) {
		const required = result.marks.includes(requiredMark);
		if (result.status === 'error') add(required ? 'required_errored' : 'grader_error', `${label(result)} errored: ${result.detail ?? ''}`);
		if (result.status === 'malformed') add('grader_malformed', `${label(result)}: ${result.detail ?? ''}`);
		if (required && result.status === 'failed') add('required_failed', `${label(result)} failed${result.detail ? `: ${result.detail}` : ''}`);
		if (required && result.status === 'skipped') add('required_skipped', `${label(result)} skipped: ${result.detail ?? ''}`);
		if (evidence.threshold !== null && result.score !== null && result.score < evidence.threshold) add('threshold', `${label(result)} scored ${result.score}, below ${evidence.threshold}`);
	}
	return {passed: failures.length === 0, failures};
}

/** Failures of the suite as a whole: a cartridge without a required grader cannot pass (an empty required suite). */
export function suiteFailures(cartridge: LoadedCartridge): Failure[] {
	const required = cartridge.graders.some(module => module.exports.some(entry => entry.marks.includes(requiredMark)));
	return required ? [] : [{reason: 'no_required_grader', detail: 'no grader is marked required: an empty required suite passes nothing'}];
}
