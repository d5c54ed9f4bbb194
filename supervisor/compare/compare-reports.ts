import {writeJson} from '../../files/write-json.js';
import {applyAcceptance, type RuleCheck} from './acceptance.js';
import {Decision, decisionSchema} from './decision-schema.js';
import {taskRows} from './table.js';
import {readSide, verifyScorer, verifySides} from './verify-reports.js';
import {rescoreWithController} from './controller-rescore.js';
import {compareTiming} from './compare-timing.js';
import {leakCheck} from './leak-check.js';
import {InputError} from '../input-error.js';

export class DecisionExistsError extends InputError {
	readonly reason = 'decision_exists';
}

/** Verifies both sides, re-scores controller plans, applies the frozen acceptance policy, and returns the decision. */
export async function compareReports(baselinePath: string, candidatePath: string): Promise<Decision> {
	const readProblems: string[] = [];
	const baseline = await readSide('baseline', baselinePath, readProblems);
	const candidate = await readSide('candidate', candidatePath, readProblems);
	const problems = [...readProblems, ...await verifySides(baseline, candidate)];
	const plan = baseline.plan;
	if (plan !== null && problems.length === 0) {
		problems.push(...await verifyScorer(plan));
		if (plan.controller !== null) problems.push(...await rescoreWithController(plan, [baseline, candidate]));
	}
	const checks: RuleCheck[] = problems.map(message => ({rule: 'verification', satisfied: false, message}));
	if (problems.length === 0) checks.unshift({rule: 'verification', satisfied: true, message: 'both reports verified: same plan, same ordered denominator, non-negative usage, cited evidence present'});
	const timing = await compareTiming(baseline, candidate);
	// A refused timing is a failed check of its own: the rule is never applied to wall times that cannot be compared.
	checks.push({rule: 'timing', satisfied: timing.kind !== 'refused', message: timing.kind === 'refused' ? `${timing.reason}: ${timing.message}` : `${timing.kind}: ${timing.message}`});
	let ratio: number | null = null;
	if (plan !== null && baseline.report !== null && candidate.report !== null && problems.length === 0 && timing.kind !== 'refused') {
		const wall = timing.kind === 'supervised'
			? {baseline: timing.baseline_wall_ms, candidate: timing.candidate_wall_ms, source: 'supervised host wall time (process.json)'}
			: undefined;
		const acceptance = applyAcceptance(plan.policy.acceptance, baseline.report, candidate.report, wall);
		checks.push(...acceptance.checks);
		ratio = acceptance.duration_ratio;
	}
	checks.push(...[leakCheck(baseline.report, candidate.report)].filter(check => check !== null));
	const accepted = problems.length === 0 && timing.kind !== 'refused' && checks.every(check => check.satisfied) && checks.length > 2;
	return Decision.parse({
		schema: decisionSchema,
		decided_at: new Date().toISOString(),
		plan_digest: plan?.plan_digest ?? null,
		decision: accepted ? 'accept' : 'reject',
		checks,
		policy: plan?.policy.acceptance ?? null,
		duration_ratio: ratio === null || !Number.isFinite(ratio) ? null : ratio,
		timing,
		baseline: {report: baseline.reportPath, attempt_id: baseline.report?.attempt_id ?? null, totals: baseline.report?.totals ?? null},
		candidate: {report: candidate.reportPath, attempt_id: candidate.report?.attempt_id ?? null, totals: candidate.report?.totals ?? null},
		tasks: taskRows(plan?.task_ids ?? baseline.report?.task_ids ?? [], baseline.report, candidate.report),
	});
}

/** Writes a decision exclusively and durably: a rerun can never overwrite an earlier decision, a crash never tears one. */
export async function writeDecision(path: string, decision: Decision): Promise<void> {
	try {
		await writeJson(path, decision, {exclusive: true, durable: true});
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new DecisionExistsError(`decision output ${path} already exists; decisions are never overwritten`);
		throw error;
	}
}
