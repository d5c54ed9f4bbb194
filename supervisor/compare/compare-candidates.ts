import {holmAdjust} from '../statistics/holm.js';
import type {AcceptancePolicy} from '../plan/experiment-policy.js';
import type {Report} from '../attempt/report/report-schema.js';
import {compareReports} from './compare-reports.js';
import type {Decision, DecisionOutcome} from './decision-schema.js';
import {CandidatesDecision, candidatesDecisionSchema, type CandidateVerdict} from './candidates-decision-schema.js';
import type {PairedStatistics} from './statistics.js';
import {ruleStatistics} from './significant-improvement.js';
import {readSide} from './verify-reports.js';

/**
 * Decides each candidate against the baseline under the frozen rule, each verified as in the two-report compare,
 * then adjusts their improvement p-values with Holm's step-down, so that the chance that any accepted candidate won by
 * luck stays within 1 − min_confidence however many were tried.
 */
export async function compareCandidates(baselinePath: string, candidatePaths: string[]): Promise<CandidatesDecision> {
	const decisions: Decision[] = [];
	const pValues: Array<number | null> = [];
	for (const candidatePath of candidatePaths) {
		const decision = await compareReports(baselinePath, candidatePath);
		decisions.push(decision);
		pValues.push(await improvementP(decision, baselinePath, candidatePath));
	}
	return familyDecision(baselinePath, candidatePaths, decisions, pValues);
}

/** The family's verdicts from each candidate's own decision and improvement p-value (null: not in the family). */
export function familyDecision(baselinePath: string, candidatePaths: string[], decisions: Decision[], pValues: Array<number | null>): CandidatesDecision {
	const confidence = decisions[0]!.policy?.min_confidence ?? null;
	const family = pValues.flatMap((p, index) => (p === null ? [] : [index]));
	const adjusted = holmAdjust(family.map(index => pValues[index]!));
	const candidates = decisions.map((decision, index): CandidateVerdict => {
		const at = family.indexOf(index);
		const adjustedP = at === -1 ? null : adjusted[at]!;
		return {candidate: candidatePaths[index]!, verdict: familyVerdict(decision, adjustedP, confidence), p_value: pValues[index]!, adjusted_p_value: adjustedP, decision};
	});
	return CandidatesDecision.parse({
		schema: candidatesDecisionSchema, decided_at: new Date().toISOString(), baseline: baselinePath, correction: 'holm',
		family_size: family.length, confidence, candidates,
		accepted: candidates.filter(item => item.verdict === 'accept').map(item => item.candidate),
	});
}

/** An acceptance that the family's correction no longer supports: every gate still holds, so the evidence is what is missing. */
function familyVerdict(decision: Decision, adjustedP: number | null, confidence: number | null): DecisionOutcome {
	if (decision.decision !== 'accept' || adjustedP === null || confidence === null) return decision.decision;
	return adjustedP <= 1 - confidence ? 'accept' : 'insufficient';
}

/** The p-value of the improvement the rule asks for, read from the two reports. */
async function improvementP(decision: Decision, baselinePath: string, candidatePath: string): Promise<number | null> {
	const policy = decision.policy;
	if (policy === null) return null;
	const ignored: string[] = [];
	const baseline = await readSide('baseline', baselinePath, ignored);
	const candidate = await readSide('candidate', candidatePath, ignored);
	if (baseline.report === null || candidate.report === null) return null;
	return improvementPValue(policy, baseline.report, candidate.report);
}

/**
 * The p-value of the improvement the rule asks for, in the candidate's favour (1 when the effect is the other way, or
 * within the margin); null when the rule judges no significance (no `min_confidence`, or `non-regression`).
 */
export function improvementPValue(policy: AcceptancePolicy, baseline: Report, candidate: Report): number | null {
	if (policy.min_confidence === null || policy.improvement === 'non-regression') return null;
	return pOf(policy.improvement, ruleStatistics(policy, policy.min_confidence, baseline, candidate));
}

function pOf(improvement: Exclude<AcceptancePolicy['improvement'], 'non-regression'>, statistics: PairedStatistics): number {
	const test = statistics.pass_fail;
	const fewer = (metric: 'turns' | 'total_tokens'): number => {
		const interval = statistics.differences.find(item => item.metric === metric)!;
		// With a margin the rule tests a saving beyond it, so the family corrects that p-value, not the one against zero.
		const margin = interval.margin ?? 0;
		if (interval.mean_difference === null || interval.mean_difference >= -margin) return 1;
		return (interval.margin === null ? interval.p_value : interval.margin_p_value) ?? 1;
	};
	switch (improvement) {
		case 'quality': return test.favours === 'candidate' ? test.p_value : 1;
		case 'turns': return fewer('turns');
		case 'tokens': return fewer('total_tokens');
		// The rule accepts either one, so its p-value is the smaller one.
		case 'turns-or-tokens': return Math.min(fewer('turns'), fewer('total_tokens'));
	}
}

/** The text `hlab eval --compare` prints for several candidates: one line per candidate, then which were accepted. */
export function candidatesSummary(decision: CandidatesDecision, output: string | null): string {
	const p = (value: number | null): string => (value === null ? 'no p-value' : value.toPrecision(3));
	return [
		`baseline ${decision.baseline}; ${decision.candidates.length} candidates, ${decision.family_size === 0 ? 'no p-values to correct (the rule has no min_confidence)' : `Holm's correction over ${decision.family_size}`}`,
		...decision.candidates.map(item => `  ${item.verdict.toUpperCase()}  ${item.candidate}: p ${p(item.p_value)}, adjusted ${p(item.adjusted_p_value)}${item.verdict === item.decision.decision ? '' : ` (alone: ${item.decision.decision})`}`),
		`accepted: ${decision.accepted.length === 0 ? 'none' : decision.accepted.join(', ')}`,
		...(output === null ? [] : [`decision written to ${output}`]),
	].join('\n');
}
