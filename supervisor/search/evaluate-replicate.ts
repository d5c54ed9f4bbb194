import {join} from 'node:path';
import type {Harness} from '../../harness/index.js';
import {responsiveModel} from '../../scripted/responsive-play.js';
import {runAttempt} from '../attempt/index.js';
import type {Report} from '../attempt/report/report-schema.js';
import {buildPlan, writePlan} from '../plan/freeze.js';
import type {PlanProvider} from '../plan/plan-schema.js';
import {agentTokenUnit} from './envelope.js';
import {replicateFeedback} from './feedback.js';
import type {SearchPolicy} from './policy-schema.js';
import type {ReplicateRecord} from './search-report.js';
import type {SearchNode} from './search-record.js';
import {spendOf} from './spend.js';
import type {Measured, SpendingLedger} from './spending-ledger.js';
import {RunRefusedError, SpendingExceededError, SpendingLimitStop} from './stop-errors.js';

/** What every replicate of a search shares: the suite, the model endpoint, where evidence goes. */
export interface EvaluationSetup {
	/** Task ids of the suite, in order. */
	suite: readonly string[];
	/** `scripted`: the responsive scripted model, one seed per replicate; otherwise the endpoint as given. */
	provider: PlanProvider;
	/** The search's folder; each replicate's plan and evidence go under it. */
	dir: string;
	/** The experiment policy file every replicate's plan is frozen with (its concurrency). */
	experimentPolicyPath: string;
	signal?: AbortSignal;
}

/**
 * One replicate of a node: reserve the evaluation and every task attempt it could run (or start nothing), freeze a
 * plan whose budgets are the harness's limits, run it as a supervised attempt with its own evidence, then charge
 * each task what its report measured.
 */
export async function evaluateReplicate(node: SearchNode, seed: number, setup: EvaluationSetup, ledger: SpendingLedger, policy: SearchPolicy): Promise<ReplicateRecord> {
	const name = `${node.node_id}-seed-${seed}`;
	const held = reserveReplicate(ledger, policy, node.harness, setup.suite, name);
	const planPath = join(setup.dir, 'plans', `${name}.json`);
	const plan = await buildPlan({provider: providerOf(setup.provider, seed), selection: setup.suite.join(','), maxSteps: node.harness.limits.max_steps, deadlineMs: node.harness.limits.deadline_ms, policyPath: setup.experimentPolicyPath, controllerPath: null, configPath: null});
	await writePlan(planPath, plan);
	const evidence = join('evaluations', name);
	const {report} = await runAttempt({planPath, artifacts: join(setup.dir, evidence), candidatePath: null, side: 'candidate', keepWorkdirs: false, configPath: null, quiet: true, harness: node.harness, ...(setup.signal === undefined ? {} : {signal: setup.signal})});
	if (!report.admission.admitted) throw new RunRefusedError(`the attempt of ${name} was not admitted: ${report.admission.differences.join('; ')}`);
	settleReplicate(ledger, held, report);
	return {seed, evidence, plan_digest: plan.plan_digest, feedback: replicateFeedback(seed, report), passed: report.tasks.filter(task => task.status === 'passed').length};
}

interface Held {
	evaluation: number;
	tasks: number[];
}

/** The evaluation and each of its task attempts reserve before any of them runs; if one cannot, none starts. */
function reserveReplicate(ledger: SpendingLedger, policy: SearchPolicy, harness: Harness, suite: readonly string[], name: string): Held {
	const taken: number[] = [];
	const take = (reserved: ReturnType<SpendingLedger['reserve']>): number => {
		if (reserved.ok) return taken.push(reserved.id), reserved.id;
		for (const id of taken) ledger.release(id);
		throw new SpendingLimitStop(reserved.detail);
	};
	const evaluation = take(ledger.reserve('evaluation', name, spendOf({candidate_evaluations: 1})));
	const steps = harness.limits.max_steps;
	const worst = spendOf({task_attempts: 1, model_calls: {agent: steps}, tokens: {[agentTokenUnit]: steps * (policy.envelope.agent_call_tokens ?? 0)}});
	const tasks = suite.map((id, index) => take(ledger.reserve('task-attempt', `${name} #${index + 1} ${id}`, worst)));
	return {evaluation, tasks};
}

/** Each task is charged its measured calls and tokens (unknown ones keep the reservation); a charge above it stops the search. */
function settleReplicate(ledger: SpendingLedger, held: Held, report: Report): void {
	const exceeded = held.tasks.flatMap((id, index) => {
		return ledger.settle(id, taskMeasured(report.tasks[index]));
	});
	exceeded.push(...ledger.settle(held.evaluation, {candidate_evaluations: 1}));
	if (exceeded.length > 0) throw new SpendingExceededError(`measured above the reservation: ${exceeded.join('; ')}`);
}

/** What one task of a replicate's report measured: its calls and tokens, null where unknown (the reservation is then charged). */
export function taskMeasured(task: Report['tasks'][number] | undefined): Measured {
	const usage = task?.usage ?? null;
	return {task_attempts: 1, model_calls: {agent: usage?.turns ?? null}, tokens: {[agentTokenUnit]: usage?.total_tokens ?? null}};
}

/** The scripted provider plays the responsive model on this replicate's seed; a real endpoint is used as given. */
function providerOf(provider: PlanProvider, seed: number): PlanProvider {
	return provider.kind === 'scripted' ? {kind: 'scripted', model: responsiveModel(seed)} : provider;
}
