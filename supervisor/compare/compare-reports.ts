import {mkdir} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';
import {ControllerIdentity} from '../../controller-protocol/index.js';
import type {ControllerClient} from '../controller/index.js';
import {writeJson} from '../../files/write-json.js';
import {applyAcceptance, type RuleCheck} from './acceptance.js';
import {Decision, decisionSchema, type ControllerVerdict, type DecisionOutcome, type DecisionTiming} from './decision-schema.js';
import {taskRows} from './table.js';
import {ruleStatistics} from './significant-improvement.js';
import {retriedEntries} from './retried-entries.js';
import {readSide, verifyScorer, verifySides, type ReportSide} from './verify-reports.js';
import {verifyEvidence, type AttemptEvidence} from './verify-evidence.js';
import {rescoreWithController} from './controller-rescore.js';
import {acceptWithController} from './controller-accept.js';
import {compareTiming} from './compare-timing.js';
import {meteringCheck} from './metering-check.js';
import {leakCheck} from './leak-check.js';
import type {Insufficient} from './insufficient.js';
import type {CandidatesDecision} from './candidates-decision-schema.js';
import {InputError} from '../input-error.js';
import type {Plan} from '../plan/plan-schema.js';

export class DecisionExistsError extends InputError {
	readonly reason = 'decision_exists';
}

export interface CompareOptions {
	/** A new folder that keeps every controller call the compare makes; see `compareEvidenceDir`. None is kept without it. */
	evidenceDir?: string | null;
}

/** The compare evidence folder that belongs beside a decision file: `decision.json` → `decision.evidence/`. */
export function compareEvidenceDir(decisionPath: string): string {
	return join(dirname(decisionPath), `${basename(decisionPath).replace(/\.json$/, '')}.evidence`);
}

/**
 * Verifies both sides, then decides: for built-in plans by the frozen acceptance rule; for controller plans by
 * re-scoring the retained evidence and asking the pinned controller's `accept`, whose answer is the decision
 * once every verification holds.
 */
export async function compareReports(baselinePath: string, candidatePath: string, options: CompareOptions = {}): Promise<Decision> {
	const readProblems: string[] = [];
	const baseline = await readSide('baseline', baselinePath, readProblems);
	const candidate = await readSide('candidate', candidatePath, readProblems);
	const problems = [...readProblems, ...await verifySides(baseline, candidate)];
	const plan = baseline.plan;
	// Re-scoring and the controller's accept need two reports that are at least the same experiment.
	const controlled = plan !== null && plan.controller !== null && problems.length === 0 && baseline.report !== null && candidate.report !== null
		? {plan, reports: {baseline: baseline.report, candidate: candidate.report}, client: await controllerClient(plan, options.evidenceDir ?? null)}
		: null;
	if (plan !== null && problems.length === 0) problems.push(...await verifyScorer(plan));
	const rescored = controlled === null ? null : await rescoreWithController(controlled.plan, [baseline, candidate], controlled.client);
	problems.push(...rescored?.problems ?? []);
	// A report is taken at its word only where its sealed ledger and result.json files agree with it. Checked after the
	// re-score, so that a pinned controller is still asked about an experiment whose evidence is then refused, on record.
	const evidence = {baseline: await sideEvidence(baseline), candidate: await sideEvidence(candidate)};
	problems.push(...evidence.baseline.problems, ...evidence.candidate.problems);

	const checks: RuleCheck[] = problems.map(message => ({rule: 'verification', satisfied: false, message}));
	if (problems.length === 0) checks.unshift({rule: 'verification', satisfied: true, message: 'both reports verified: sealed ledgers intact and in agreement with report.json and every result.json, same plan, same ordered denominator, non-negative usage, cited evidence present'});
	const timing = await compareTiming(baseline, candidate);
	// A refused timing is a failed check of its own: no decision is taken on wall times that cannot be compared.
	checks.push({rule: 'timing', satisfied: timing.kind !== 'refused', message: timing.kind === 'refused' ? `${timing.reason}: ${timing.message}` : `${timing.kind}: ${timing.message}`});
	const verified = problems.length === 0 && timing.kind !== 'refused';
	// A candidate that left processes behind where the baseline did not is named, and cannot be accepted.
	const leaks = leakCheck(baseline.report, candidate.report);
	if (leaks !== null) checks.push(leaks);
	// A host binary whose usage claims differ from the supervisor's metering is named; a candidate's cannot be accepted.
	const metering = meteringCheck(baseline.report, candidate.report);
	if (metering !== null) checks.push(metering);

	let decided: {outcome: DecisionOutcome; ratio: number | null; controller: ControllerVerdict | null; insufficient?: Insufficient | null};
	if (controlled !== null && rescored !== null) {
		// Asked even when a re-score failed, so its answer is on record; it decides only over verified reports.
		const asked = await acceptWithController(controlled.plan, controlled.reports, rescored.rescores, controlled.client);
		checks.push(asked.check);
		decided = {outcome: verified && leaks?.satisfied !== false && metering?.satisfied !== false && asked.verdict.decision !== null ? asked.verdict.decision : 'reject', ratio: null, controller: asked.verdict};
	} else {
		decided = {...decideByRule(verified ? plan : null, baseline, candidate, timing, checks), controller: null};
	}
	return Decision.parse({
		schema: decisionSchema,
		decided_at: new Date().toISOString(),
		plan_digest: plan?.plan_digest ?? null,
		hypothesis: plan?.hypothesis ?? null,
		decision: decided.outcome,
		insufficient: decided.insufficient ?? null,
		decided_by: plan?.controller == null ? 'builtin-rule' : 'controller',
		checks,
		controller: decided.controller,
		evidence: controlled === null ? null : options.evidenceDir ?? null,
		policy: plan?.policy.acceptance ?? null,
		duration_ratio: decided.ratio === null || !Number.isFinite(decided.ratio) ? null : decided.ratio,
		timing,
		baseline: {report: baseline.reportPath, attempt_id: baseline.report?.attempt_id ?? null, totals: baseline.report?.totals ?? null, integrity: baseline.report?.integrity ?? null, seal: evidence.baseline.seal, agent: baseline.report?.agent ?? null},
		candidate: {report: candidate.reportPath, attempt_id: candidate.report?.attempt_id ?? null, totals: candidate.report?.totals ?? null, integrity: candidate.report?.integrity ?? null, seal: evidence.candidate.seal, agent: candidate.report?.agent ?? null},
		tasks: taskRows(plan?.task_ids ?? baseline.report?.task_ids ?? [], baseline.report, candidate.report),
		retried: retriedEntries(baseline.report, candidate.report),
		statistics: plan !== null && plan.repeat > 1 && baseline.report !== null && candidate.report !== null
			? ruleStatistics(plan.policy.acceptance, plan.policy.acceptance.min_confidence ?? 0.95, baseline.report, candidate.report)
			: null,
	});
}

/** A side's seal and every check of its evidence that does not hold, as verification problems naming the side. */
async function sideEvidence(side: ReportSide): Promise<{seal: AttemptEvidence['seal'] | null; problems: string[]}> {
	if (side.report === null) return {seal: null, problems: []};
	const {seal, checks} = await verifyEvidence(side.dir, side.report);
	return {seal, problems: checks.filter(check => !check.holds).map(check => `${side.label}: ${check.check}: ${check.message}`)};
}

/** The built-in plans' decision: the frozen acceptance rule over verified reports (a null plan: not verified), appended to `checks`. */
function decideByRule(plan: Plan | null, baseline: ReportSide, candidate: ReportSide, timing: DecisionTiming, checks: RuleCheck[]): {outcome: DecisionOutcome; ratio: number | null; insufficient: Insufficient | null} {
	if (plan === null || baseline.report === null || candidate.report === null) return {outcome: 'reject', ratio: null, insufficient: null};
	const wall = timing.kind === 'supervised'
		? {baseline: timing.baseline_wall_ms, candidate: timing.candidate_wall_ms, source: 'supervised host whole-attempt wall time (host records)'}
		: undefined;
	const acceptance = applyAcceptance(plan.policy.acceptance, baseline.report, candidate.report, wall);
	checks.push(...acceptance.checks);
	if (checks.every(check => check.satisfied) && checks.length > 2) return {outcome: 'accept', ratio: acceptance.duration_ratio, insufficient: null};
	// Every gate holds and only the improvement's significance is missing: more evidence, not a worse candidate.
	const onlyEvidence = acceptance.insufficient !== null && checks.every(check => check.satisfied || check.rule === 'improvement');
	return onlyEvidence
		? {outcome: 'insufficient', ratio: acceptance.duration_ratio, insufficient: acceptance.insufficient}
		: {outcome: 'reject', ratio: acceptance.duration_ratio, insufficient: null};
}

/** One client for every call of this compare; its calls are kept in a new evidence folder when one is given. */
async function controllerClient(plan: Plan, evidenceDir: string | null): Promise<ControllerClient> {
	const identity = ControllerIdentity.parse(plan.controller!.identity);
	// Loaded for a controller plan only: its client runs the controller's process (process/ and execa, ~150 modules).
	const {createControllerClient} = await import('../controller/index.js');
	if (evidenceDir === null) return createControllerClient({identity});
	try {
		await mkdir(evidenceDir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new DecisionExistsError(`compare evidence ${evidenceDir} already exists; a decision's evidence is never mixed with another's`);
		throw error;
	}
	return createControllerClient({identity, evidenceDir});
}

/** Writes a decision exclusively and durably: a rerun can never overwrite an earlier decision, a crash never tears one. */
export async function writeDecision(path: string, decision: Decision | CandidatesDecision): Promise<void> {
	try {
		await writeJson(path, decision, {exclusive: true, durable: true});
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new DecisionExistsError(`decision output ${path} already exists; decisions are never overwritten`);
		throw error;
	}
}
