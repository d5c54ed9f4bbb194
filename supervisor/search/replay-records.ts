import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {canonicalJson} from '../../files/canonical-json.js';
import {fingerprintHarness} from '../../harness/index.js';
import {Report} from '../attempt/report/report-schema.js';
import {verifyAttempt} from '../compare/verify-attempt.js';
import {compareWithEarlier} from './compare-nodes.js';
import {envelopeLimits} from './envelope.js';
import {taskMeasured} from './evaluate-replicate.js';
import {replicateFeedback} from './feedback.js';
import {fingerprintProposal} from './planner.js';
import type {Comparison, NodeView, SearchNode} from './search-record.js';
import type {ReplicateRecord, RoundRecord, SearchReport, StopReason} from './search-report.js';
import {addSpend, emptySpend} from './spend.js';
import {describeSpend, SpendingLedger, type LedgerEntry} from './spending-ledger.js';

/*
 * What replay checks besides the planning: every recorded field it can recompute from the rest of the report, or
 * check against the replicates' own evidence. Each mismatch is one line naming the field.
 */

/** Every recorded field that does not agree with what it is computed from; `dir` (the search folder) adds the evidence checks. */
export async function recordMismatches(report: SearchReport, dir: string | null): Promise<string[]> {
	return [
		...nodeMismatches(report),
		...(dir === null ? [] : await evidenceMismatches(report, dir)),
		...comparisonMismatches(report),
		...spendMismatches(report),
		...stopMismatches(report),
	];
}

/** Each node's harness gives its fingerprint, and each child is the harness, parent and fingerprint of the proposal that made it. */
function nodeMismatches(report: SearchReport): string[] {
	const proposals = report.rounds.flatMap(round => round.plans.flatMap(({outcome}) => (outcome.proposal === null ? [] : [outcome.proposal])));
	const mismatches = report.nodes.flatMap((node, index) => {
		const digest = fingerprintHarness(node.harness).digest;
		const own = digest === node.fingerprint ? [] : [`node ${node.node_id}: its recorded harness gives the fingerprint ${digest}, not the recorded ${node.fingerprint}`];
		return [...own, ...lineageMismatches(node, index === 0 ? null : proposals[index - 1])];
	});
	const order = report.rounds.flatMap((round, index) => (round.round === index + 1 && round.node_id === report.nodes[index]?.node_id ? [] : [`round ${round.round}: it is not round ${index + 1} evaluating ${report.nodes[index]?.node_id ?? 'a recorded node'}`]));
	return [...mismatches, ...order];
}

function lineageMismatches(node: SearchNode, made: RoundRecord['plans'][number]['outcome']['proposal'] | undefined): string[] {
	if (made === undefined) return [`node ${node.node_id}: no recorded proposal made it`];
	const expected = made === null ? {created_by: null, parent_ids: []} : {created_by: fingerprintProposal(made), parent_ids: [made.parent_id]};
	return [
		...(node.created_by === expected.created_by ? [] : [`node ${node.node_id}: created_by is not the fingerprint of the proposal that made it`]),
		...(canonicalJson(node.parent_ids) === canonicalJson(expected.parent_ids) ? [] : [`node ${node.node_id}: its parents are not its proposal's`]),
		...(made === null || canonicalJson(made.harness) === canonicalJson(node.harness) ? [] : [`node ${node.node_id}: its harness is not the one its proposal gave`]),
	];
}

/** Each replicate against its attempt: where the search put it, its seal and report intact, the node's harness, its plan, its feedback. */
async function evidenceMismatches(report: SearchReport, dir: string): Promise<string[]> {
	const mismatches: string[] = [];
	for (const [index, round] of report.rounds.entries()) {
		const node = report.nodes[index];
		if (node === undefined) continue;
		for (const [at, replicate] of round.replicates.entries()) mismatches.push(...await replicateMismatches(report, dir, node, replicate, at, round.spending));
	}
	return mismatches;
}

async function replicateMismatches(report: SearchReport, dir: string, node: SearchNode, replicate: ReplicateRecord, at: number, spending: LedgerEntry[]): Promise<string[]> {
	const where = `${node.node_id} seed ${replicate.seed}`;
	if (replicate.seed !== report.seeds[at]) return [`${where}: replicate ${at + 1} is recorded on seed ${replicate.seed}, not seed ${report.seeds[at] ?? 'none'}`];
	// Only the folder the search made for it is read: an edited path could point at any other attempt.
	const evidence = `evaluations/${node.node_id}-seed-${replicate.seed}`;
	if (replicate.evidence !== evidence) return [`${where}: its evidence is recorded at ${replicate.evidence}, not ${evidence} where the search put it`];
	const verification = await verifyAttempt(join(dir, evidence)).catch((error: Error) => error);
	if (verification instanceof Error) return [`${where}: ${verification.message}`];
	const broken = verification.checks.filter(check => !check.holds).map(check => `${where}: its evidence does not verify (${check.check}: ${check.message})`);
	if (broken.length > 0) return broken;
	const attempt = Report.parse(JSON.parse(await readFile(join(dir, evidence, 'report.json'), 'utf8')));
	const ran = await ranHarness(join(dir, evidence));
	const feedback = replicateFeedback(replicate.seed, attempt);
	const passed = attempt.tasks.filter(task => task.status === 'passed').length;
	return [
		...(ran === node.fingerprint ? [] : [`${where}: its attempt ran the harness ${ran ?? 'unknown'}, not the node's ${node.fingerprint}`]),
		...(attempt.plan_digest === replicate.plan_digest ? [] : [`${where}: plan_digest is ${replicate.plan_digest}, its attempt ran ${attempt.plan_digest}`]),
		...(passed === replicate.passed ? [] : [`${where}: passed is ${replicate.passed}, its attempt's report gives ${passed}`]),
		...(['tasks', 'score', 'turns', 'executions'] as const).filter(field => canonicalJson(feedback[field]) !== canonicalJson(replicate.feedback[field]))
			.map(field => `${where}: feedback.${field} is not what its attempt's report gives`),
		...chargeMismatches(where, spending, `${node.node_id}-seed-${replicate.seed}`, attempt),
	];
}

/** Each task attempt's spending entry is charged what its attempt's report measured, as the search settled it. */
function chargeMismatches(where: string, spending: LedgerEntry[], name: string, attempt: Report): string[] {
	return attempt.tasks.flatMap((task, index) => {
		const label = `${name} #${index + 1} ${task.task_id}`;
		const entry = spending.find(candidate => candidate.unit === 'task-attempt' && candidate.label === label);
		if (entry?.state !== 'settled') return [`${where}: no settled spending entry for task-attempt ${label}`];
		// Settled again by the ledger's own rule, within a reservation of exactly the recorded one.
		const again = new SpendingLedger(entry.reserved);
		const reserved = again.reserve(entry.unit, label, entry.reserved);
		if (reserved.ok) again.settle(reserved.id, taskMeasured(task));
		return canonicalJson(again.entries[0]?.charged ?? null) === canonicalJson(entry.charged) ? [] : [`${where}: task-attempt ${label} is charged ${describeSpend(entry.charged ?? emptySpend())}, its attempt's report measured ${describeSpend(again.entries[0]?.charged ?? emptySpend())}`];
	});
}

/** The harness fingerprint an attempt's record says it ran. */
async function ranHarness(attemptDir: string): Promise<string | null> {
	const record = JSON.parse(await readFile(join(attemptDir, 'attempt.json'), 'utf8')) as {harness?: {digest?: unknown} | null};
	return typeof record.harness?.digest === 'string' ? record.harness.digest : null;
}

/** Each round's comparisons, and every plan's context, against what the recorded replicates give. */
function comparisonMismatches(report: SearchReport): string[] {
	const mismatches: string[] = [];
	const earlier: NodeView[] = [];
	const all: Comparison[] = [];
	for (const [index, round] of report.rounds.entries()) {
		const node = report.nodes[index];
		if (node === undefined) continue;
		const evaluated = round.replicates.length === report.seeds.length;
		const mine: NodeView = {node_id: node.node_id, fingerprint: node.fingerprint, parent_ids: node.parent_ids, status: evaluated ? 'evaluated' : 'failed', feedback: round.replicates.map(replicate => replicate.feedback)};
		const expected = evaluated ? compareWithEarlier(mine, earlier, report.policy.comparison_k) : [];
		if (canonicalJson(expected) !== canonicalJson(round.comparisons)) mismatches.push(`round ${round.round}: the comparisons are not what the recorded replicates give (${differingComparisons(expected, round.comparisons)})`);
		all.push(...expected);
		if (evaluated) earlier.push(mine);
		for (const [at, {context}] of round.plans.entries()) mismatches.push(...contextMismatches(`round ${round.round} plan ${at + 1}`, context, earlier, all));
	}
	return mismatches;
}

function differingComparisons(expected: Comparison[], recorded: Comparison[]): string {
	if (expected.length !== recorded.length) return `${recorded.length} recorded, ${expected.length} computed`;
	return expected.flatMap((comparison, index) => (canonicalJson(comparison) === canonicalJson(recorded[index]) ? [] : [`${comparison.a} vs ${comparison.b} on ${comparison.objective}`])).join(', ');
}

/** What a planner was shown: the evaluated nodes' feedback and the comparisons so far, as recorded elsewhere in the report. */
function contextMismatches(where: string, context: RoundRecord['plans'][number]['context'], evaluated: NodeView[], comparisons: Comparison[]): string[] {
	const feedback = (views: NodeView[]) => canonicalJson(views.filter(view => view.status === 'evaluated').map(view => [view.node_id, view.feedback]));
	return [
		...(feedback(context.nodes) === feedback(evaluated) ? [] : [`${where}: the context's node feedback is not the recorded replicates'`]),
		...(canonicalJson(context.comparisons) === canonicalJson(comparisons) ? [] : [`${where}: the context's comparisons are not the recorded rounds'`]),
	];
}

/** The spend is the sum of the charges of every recorded unit, and the limits are the policy's envelope. */
function spendMismatches(report: SearchReport): string[] {
	const charged = report.rounds.flatMap(round => round.spending).reduce((total, entry) => addSpend(total, entry.charged ?? emptySpend()), emptySpend());
	return [
		...(canonicalJson(charged) === canonicalJson(report.spent) ? [] : [`spent: recorded ${describeSpend(report.spent)}, the recorded units were charged ${describeSpend(charged)}`]),
		...(canonicalJson(envelopeLimits(report.policy.envelope)) === canonicalJson(report.limits) ? [] : ['limits: not the policy\'s envelope']),
	];
}

/** The stop reason (and, where it is determined, its detail) against how the records end. */
function stopMismatches(report: SearchReport): string[] {
	const {reasons, detail} = possibleStops(report);
	if (!reasons.includes(report.stop_reason)) return [`stop_reason: recorded ${report.stop_reason}, but the records end in ${reasons.join(' or ')}`];
	if (detail !== undefined && detail !== report.stop_detail) return [`stop_detail: recorded ${JSON.stringify(report.stop_detail)}, the records give ${JSON.stringify(detail)}`];
	return [];
}

/** Which stop reasons the records allow, from how the last round ended (run-search.ts's endings). */
function possibleStops(report: SearchReport): {reasons: StopReason[]; detail?: string} {
	const last = report.rounds.at(-1);
	// No round: the first could not reserve its round.
	if (last === undefined) return {reasons: ['spending-limit']};
	if (last.replicates.length < report.seeds.length) return {reasons: ['spending-limit', 'spending-exceeded', 'run-refused', 'error']};
	const outcome = last.plans.at(-1)?.outcome;
	const {max_rounds} = report.policy.envelope;
	if (outcome === undefined) return report.spent.rounds >= max_rounds ? {reasons: ['max-rounds'], detail: `${max_rounds} round(s) run`} : {reasons: ['error', 'provider-error', 'spending-limit', 'spending-exceeded']};
	// A proposal taken: the next round could not reserve, or the proposal was refused where it was acted on.
	if (outcome.proposal !== null) return {reasons: ['spending-limit', 'error']};
	if (outcome.exhausted === null) return {reasons: ['no-proposal'], detail: outcome.reason};
	// An exhausted node is planned again: only that planning's failure ends the search.
	return {reasons: ['provider-error', 'spending-limit', 'spending-exceeded']};
}
