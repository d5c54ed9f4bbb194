import {mkdir} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';
import {ControllerIdentity} from '../../controller-protocol/index.js';
import {createControllerClient, type ControllerClient} from '../controller/index.js';
import {writeJson} from '../../files/write-json.js';
import {applyAcceptance, type RuleCheck} from './acceptance.js';
import {Decision, decisionSchema, type ControllerVerdict, type DecisionOutcome} from './decision-schema.js';
import {taskRows} from './table.js';
import {readSide, verifyScorer, verifySides} from './verify-reports.js';
import {rescoreWithController, type Rescores} from './controller-rescore.js';
import {acceptWithController} from './controller-accept.js';
import {compareTiming} from './compare-timing.js';
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
	const comparable = problems.length === 0;
	const plan = baseline.plan;
	let client: ControllerClient | null = null;
	let rescores: Rescores | null = null;
	if (plan !== null && comparable) {
		problems.push(...await verifyScorer(plan));
		if (plan.controller !== null) {
			client = await controllerClient(plan, options.evidenceDir ?? null);
			const rescored = await rescoreWithController(plan, [baseline, candidate], client);
			problems.push(...rescored.problems);
			rescores = rescored.rescores;
		}
	}
	const checks: RuleCheck[] = problems.map(message => ({rule: 'verification', satisfied: false, message}));
	if (problems.length === 0) checks.unshift({rule: 'verification', satisfied: true, message: 'both reports verified: same plan, same ordered denominator, non-negative usage, cited evidence present'});
	const timing = await compareTiming(baseline, candidate);
	// A refused timing is a failed check of its own: no decision is taken on wall times that cannot be compared.
	checks.push({rule: 'timing', satisfied: timing.kind !== 'refused', message: timing.kind === 'refused' ? `${timing.reason}: ${timing.message}` : `${timing.kind}: ${timing.message}`});
	const verified = problems.length === 0 && timing.kind !== 'refused';
	let ratio: number | null = null;
	let controller: ControllerVerdict | null = null;
	let outcome: DecisionOutcome;
	if (client !== null && rescores !== null && baseline.report !== null && candidate.report !== null) {
		// Asked even when a re-score failed, so its answer is on record; it decides only over verified reports.
		const asked = await acceptWithController(plan!, {baseline: baseline.report, candidate: candidate.report}, rescores, client);
		controller = asked.verdict;
		checks.push(asked.check);
		outcome = verified && controller.decision !== null ? controller.decision : 'reject';
	} else {
		if (plan !== null && baseline.report !== null && candidate.report !== null && verified) {
			const wall = timing.kind === 'supervised'
				? {baseline: timing.baseline_wall_ms, candidate: timing.candidate_wall_ms, source: 'supervised host wall time (process.json)'}
				: undefined;
			const acceptance = applyAcceptance(plan.policy.acceptance, baseline.report, candidate.report, wall);
			checks.push(...acceptance.checks);
			ratio = acceptance.duration_ratio;
		}
		outcome = verified && checks.every(check => check.satisfied) && checks.length > 2 ? 'accept' : 'reject';
	}
	return Decision.parse({
		schema: decisionSchema,
		decided_at: new Date().toISOString(),
		plan_digest: plan?.plan_digest ?? null,
		hypothesis: plan?.hypothesis ?? null,
		decision: outcome,
		decided_by: plan?.controller == null ? 'builtin-rule' : 'controller',
		checks,
		controller,
		evidence: client === null ? null : options.evidenceDir ?? null,
		policy: plan?.policy.acceptance ?? null,
		duration_ratio: ratio === null || !Number.isFinite(ratio) ? null : ratio,
		timing,
		baseline: {report: baseline.reportPath, attempt_id: baseline.report?.attempt_id ?? null, totals: baseline.report?.totals ?? null},
		candidate: {report: candidate.reportPath, attempt_id: candidate.report?.attempt_id ?? null, totals: candidate.report?.totals ?? null},
		tasks: taskRows(plan?.task_ids ?? baseline.report?.task_ids ?? [], baseline.report, candidate.report),
	});
}

/** One client for every call of this compare; its calls are kept in a new evidence folder when one is given. */
async function controllerClient(plan: Plan, evidenceDir: string | null): Promise<ControllerClient> {
	const identity = ControllerIdentity.parse(plan.controller!.identity);
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
export async function writeDecision(path: string, decision: Decision): Promise<void> {
	try {
		await writeJson(path, decision, {exclusive: true, durable: true});
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new DecisionExistsError(`decision output ${path} already exists; decisions are never overwritten`);
		throw error;
	}
}
