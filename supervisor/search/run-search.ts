import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import {fingerprintHarness, verifyProposal, type Harness} from '../../harness/index.js';
import {writeJson} from '../../files/write-json.js';
import {InputError} from '../input-error.js';
import {checkRoot} from './check-root.js';
import {compareWithEarlier} from './compare-nodes.js';
import {checkEnvelope, envelopeLimits} from './envelope.js';
import {evaluateReplicate, type EvaluationSetup} from './evaluate-replicate.js';
import {ledgerGate} from './ledger-gate.js';
import {fingerprintProposal, plan, plannerOperations, type Planner} from './planner.js';
import {fingerprintPolicy} from './policy-schema.js';
import {ProviderContractError} from './providers.js';
import type {Comparison, NodeView, PlanOutcome, SearchContext, SearchNode, SearchProposal} from './search-record.js';
import {SearchReport, searchReportSchema, type ReplicateRecord, type RoundRecord, type StopReason} from './search-report.js';
import {addSpend, emptySpend, spendOf} from './spend.js';
import {describeSpend, SpendingLedger} from './spending-ledger.js';
import {winnerLine} from './search-winner.js';
import {ProposalRefusedError, RunRefusedError, SpendingExceededError, SpendingLimitStop} from './stop-errors.js';

export interface SearchOptions {
	planner: Planner;
	root: Harness;
	/** How the report names the root: `builtin` or the harness file. */
	rootName: string;
	seeds: readonly number[];
	/** A new folder for the report, plans and evidence. */
	dir: string;
	setup: Omit<EvaluationSetup, 'dir' | 'experimentPolicyPath'>;
	/** The evaluation of one replicate; the real one unless a test needs a runner that fails. */
	evaluate?: typeof evaluateReplicate;
	/** Called with each line worth printing as the search goes (decisions, comparisons, spend). */
	say?: (line: string) => void;
}

export class SearchDirError extends InputError {
	readonly reason = 'search-dir-exists';
}

/** How one search ended, and the error to raise once the report is written (null: none). */
interface Ending {
	reason: StopReason;
	detail: string;
	error: Error | null;
}

interface State {
	nodes: SearchNode[];
	views: Map<string, NodeView>;
	rounds: RoundRecord[];
	exhausted: string[];
	history: string[];
}

/**
 * A harness search, round by round, under the policy's envelope: each round evaluates the current candidate on
 * every seed (real supervised attempts), compares it with every evaluated node, gives the planner provider-safe
 * feedback, and takes the verified proposal as the next candidate. `search-report.json` is written whatever ends
 * it; then the error, if one ended it, is raised.
 */
export async function runSearch(options: SearchOptions): Promise<SearchReport> {
	const {planner} = options;
	checkEnvelope(planner.policy, {providerCalls: planner.search.callsModel || planner.mutation.callsModel});
	checkRoot(planner.policy, options.root);
	const setup = await openSearchDir(options);
	const ledger = new SpendingLedger(envelopeLimits(planner.policy.envelope));
	const state: State = {nodes: [], views: new Map(), rounds: [], exhausted: [], history: []};
	const startedAt = new Date().toISOString();
	let current: SearchNode | null = addNode(state, options.root, [], null);
	let ending: Ending | null = null;
	for (let round = 1; ending === null && current !== null; round += 1) {
		const mark = ledger.entries.length;
		ending = options.setup.signal?.aborted === true ? {reason: 'interrupted', detail: `a stop signal before round ${round}`, error: null} : startRound(ledger, round);
		if (ending !== null) break;
		const ran = await runRound(options, setup, ledger, state, current, round);
		state.rounds.push({...ran.record, spending: ledger.entries.slice(mark)});
		say(options, [roundSpend(ledger, mark, round)]);
		({ending, next: current} = ran);
	}
	ending ??= {reason: 'error', detail: 'the search ended without a stop reason', error: null};
	const report = SearchReport.parse({
		schema: searchReportSchema, policy: planner.policy, policy_fingerprint: fingerprintPolicy(planner.policy), search: planner.search.binding, mutation: planner.mutation.binding,
		root: options.rootName, suite: options.setup.suite, seeds: options.seeds, provider: options.setup.provider, nodes: state.nodes, rounds: state.rounds,
		stop_reason: ending.reason, stop_detail: ending.detail, spent: ledger.spent(), limits: ledger.limits, started_at: startedAt, ended_at: new Date().toISOString(),
	});
	await writeJson(join(options.dir, 'search-report.json'), report, {exclusive: true, durable: true});
	say(options, [`stopped: ${ending.reason} (${ending.detail})`, `spent: ${describeSpend(report.spent)}`, winnerLine([...state.views.values()], planner.policy.comparison_k)]);
	if (ending.error !== null) throw ending.error;
	return report;
}

/**
 * One round: evaluate the node on every seed, compare it, plan. Whatever fails after the replicates (comparing,
 * planning, adding the next node) ends the search the same way, named by its type and never its message.
 */
async function runRound(options: SearchOptions, setup: EvaluationSetup, ledger: SpendingLedger, state: State, node: SearchNode, round: number): Promise<{record: Omit<RoundRecord, 'spending'>; ending: Ending | null; next: SearchNode | null}> {
	const evaluated = await evaluateNode(options, setup, ledger, state, node);
	const record = {round, node_id: node.node_id, replicates: evaluated.replicates, comparisons: [] as Comparison[], plans: [] as RoundRecord['plans']};
	if (evaluated.ending !== null) return {record, ending: evaluated.ending, next: null};
	try {
		record.comparisons = compareWithOthers(state, node, options.planner.policy.comparison_k);
		say(options, record.comparisons.map(describeComparison));
		const planned = await planRound(options, state, ledger, round, record.comparisons);
		record.plans = planned.plans;
		const next = planned.proposal === null ? null : addNode(state, planned.proposal.harness, [planned.proposal.parent_id], fingerprintProposal(planned.proposal));
		return {record, ending: planned.ending, next};
	} catch (error) {
		const type = error instanceof Error ? error.constructor.name : typeof error;
		return {record, ending: {reason: 'error', detail: `${type} after the evaluation in round ${round}`, error: error instanceof Error ? error : new Error(type)}, next: null};
	}
}

async function openSearchDir(options: SearchOptions): Promise<EvaluationSetup> {
	try {
		await mkdir(options.dir, {recursive: false});
	} catch (error) {
		throw new SearchDirError(`cannot create the search folder ${options.dir} (each search needs a new one): ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
	}
	await mkdir(join(options.dir, 'plans'));
	await mkdir(join(options.dir, 'evaluations'));
	const experimentPolicyPath = join(options.dir, 'experiment-policy.json');
	await writeJson(experimentPolicyPath, {concurrency: 2}, {exclusive: true});
	return {...options.setup, dir: options.dir, experimentPolicyPath};
}

function say(options: SearchOptions, lines: string[]): void {
	for (const line of lines) options.say?.(line);
}

function addNode(state: State, harness: Harness, parent_ids: string[], created_by: string | null): SearchNode {
	const node: SearchNode = {node_id: `node-${String(state.nodes.length).padStart(3, '0')}`, harness, fingerprint: fingerprintHarness(harness).digest, parent_ids, created_by};
	state.nodes.push(node);
	state.views.set(node.node_id, {node_id: node.node_id, fingerprint: node.fingerprint, parent_ids, status: 'pending', feedback: []});
	return node;
}

/** A round is a unit too: it reserves one round before anything of it runs. */
function startRound(ledger: SpendingLedger, round: number): Ending | null {
	const reserved = ledger.reserve('round', `round ${round}`, spendOf({rounds: 1}));
	if (!reserved.ok) return {reason: 'spending-limit', detail: reserved.detail, error: null};
	ledger.settle(reserved.id, {rounds: 1});
	return null;
}

/** Every seed of the node, in order; what stops it is an ending, and an error charges the unit it interrupted in full. */
async function evaluateNode(options: SearchOptions, setup: EvaluationSetup, ledger: SpendingLedger, state: State, node: SearchNode): Promise<{replicates: ReplicateRecord[]; ending: Ending | null}> {
	const replicates: ReplicateRecord[] = [];
	let ending: Ending | null = null;
	try {
		for (const seed of options.seeds) {
			const replicate = await (options.evaluate ?? evaluateReplicate)(node, seed, setup, ledger, options.planner.policy);
			replicates.push(replicate);
			say(options, [`  ${node.node_id} seed ${seed}: ${replicate.passed}/${replicate.feedback.tasks} passed, ${replicate.feedback.turns ?? 'unknown'} turns (${replicate.evidence})`]);
			// The interrupted replicate is recorded as its attempt reported it; nothing after it starts.
			if (setup.signal?.aborted === true) {
				ending = {reason: 'interrupted', detail: `a stop signal during ${node.node_id} seed ${seed}`, error: null};
				break;
			}
		}
	} catch (error) {
		ending = endingOf(error, ledger);
	}
	const view = state.views.get(node.node_id)!;
	view.feedback = replicates.map(replicate => replicate.feedback);
	view.status = ending === null ? 'evaluated' : 'failed';
	return {replicates, ending};
}

/** What an error that ended an evaluation means for the search. */
function endingOf(error: unknown, ledger: SpendingLedger): Ending {
	if (error instanceof SpendingLimitStop) return {reason: 'spending-limit', detail: error.message, error: null};
	if (error instanceof SpendingExceededError) return {reason: 'spending-exceeded', detail: error.message, error};
	const type = error instanceof Error ? error.constructor.name : typeof error;
	const abandoned = ledger.abandon(type);
	const unit = abandoned[0] === undefined ? '' : ` during ${abandoned[0].unit} ${abandoned[0].label}`;
	const raised = error instanceof Error ? error : new Error(`a non-error was thrown: ${type}`);
	if (error instanceof RunRefusedError) return {reason: 'run-refused', detail: `${type}${unit}`, error: raised};
	return {reason: 'error', detail: `${type}${unit}`, error: raised};
}

function compareWithOthers(state: State, current: SearchNode, k: number): Comparison[] {
	const mine = state.views.get(current.node_id)!;
	if (mine.status !== 'evaluated') return [];
	return compareWithEarlier(mine, [...state.views.values()].filter(view => view !== mine && view.status === 'evaluated'), k);
}

function describeComparison(comparison: Comparison): string {
	if (comparison.status === 'withheld-from-provider') return `  compare ${comparison.a} vs ${comparison.b} on ${comparison.objective}: withheld from the provider`;
	const difference = comparison.difference === null ? 'unknown' : comparison.difference.toFixed(3);
	const error = comparison.standard_error === null ? 'unknown' : comparison.standard_error.toFixed(3);
	return `  compare ${comparison.a} vs ${comparison.b} on ${comparison.objective}: difference ${difference}, standard error ${error}, k ${comparison.k}: ${comparison.verdict ?? 'no verdict'}`;
}

interface Planned {
	plans: RoundRecord['plans'];
	proposal: SearchProposal | null;
	ending: Ending | null;
}

/**
 * Plans until a proposal, or an ending: the last round was run, the providers had nothing, or a provider broke
 * its contract. A node the mutation provider had nothing more for is exhausted and the search provider asked again.
 */
async function planRound(options: SearchOptions, state: State, ledger: SpendingLedger, round: number, comparisons: Comparison[]): Promise<Planned> {
	const {envelope} = options.planner.policy;
	if (ledger.spent().rounds >= envelope.max_rounds) return {plans: [], proposal: null, ending: {reason: 'max-rounds', detail: `${envelope.max_rounds} round(s) run`, error: null}};
	const plans: RoundRecord['plans'] = [];
	const allComparisons = [...state.rounds.flatMap(record => record.comparisons), ...comparisons];
	for (;;) {
		const context = contextOf(state, round, allComparisons, ledger);
		let outcome: PlanOutcome;
		try {
			outcome = await plan(options.planner, context, new Map(state.nodes.map(node => [node.node_id, node.harness])), ledgerGate(ledger, options.planner.policy));
		} catch (error) {
			if (error instanceof SpendingLimitStop) return {plans, proposal: null, ending: {reason: 'spending-limit', detail: error.message, error: null}};
			if (error instanceof SpendingExceededError) return {plans, proposal: null, ending: {reason: 'spending-exceeded', detail: error.message, error}};
			// A provider's message is not ours to repeat: a broken contract is named by the planner, anything else by its type.
			const detail = error instanceof ProviderContractError ? error.message : `a provider raised ${error instanceof Error ? error.constructor.name : typeof error} while planning round ${round}`;
			return {plans, proposal: null, ending: {reason: 'provider-error', detail, error: error instanceof Error ? error : new Error(detail)}};
		}
		plans.push({context, outcome});
		say(options, describePlan(outcome));
		if (outcome.proposal !== null) {
			const problems = verifyAgain(options.planner, state, outcome.proposal);
			if (problems.length > 0) return {plans, proposal: null, ending: {reason: 'error', detail: `ProposalRefusedError while acting on the proposal of round ${round}`, error: new ProposalRefusedError(problems)}};
			state.history.push(fingerprintProposal(outcome.proposal));
			return {plans, proposal: outcome.proposal, ending: null};
		}
		if (outcome.exhausted === null) return {plans, proposal: null, ending: {reason: 'no-proposal', detail: outcome.reason, error: null}};
		state.exhausted.push(outcome.exhausted);
	}
}

function contextOf(state: State, round: number, comparisons: Comparison[], ledger: SpendingLedger): SearchContext {
	return structuredClone({round, nodes: [...state.views.values()], comparisons, exhausted: [...state.exhausted].sort(), history: state.history, spent: ledger.spent(), limits: ledger.limits});
}

function describePlan(outcome: PlanOutcome): string[] {
	const choice = outcome.choice.kind === 'base' ? `chose ${outcome.choice.node_id}: ${outcome.choice.rationale}` : `chose nothing: ${outcome.choice.reason}`;
	return [
		`  plan: ${choice}`,
		...outcome.refusals.map(refusal => `    refused ${refusal.operations.join('+')}: ${refusal.reasons.join('; ')}`),
		outcome.proposal === null ? `    ${outcome.reason}` : `    proposed ${outcome.proposal.patch.operations.map(operation => operation.op).join('+')} on ${outcome.proposal.parent_id} (${outcome.proposal.patch.rationale})`,
	];
}

/** One running line per round, not one per unit (search-report.json keeps each): what the round was charged and the total so far. */
function roundSpend(ledger: SpendingLedger, mark: number, round: number): string {
	const entries = ledger.entries.slice(mark);
	const charged = entries.reduce((total, entry) => addSpend(total, entry.charged ?? emptySpend()), emptySpend());
	const notes = entries.flatMap(entry => (entry.note === null ? [] : [`${entry.unit} ${entry.label}: ${entry.note}`]));
	return `  spent in round ${round}: ${describeSpend(charged)}; so far ${describeSpend(ledger.spent())}${notes.length === 0 ? '' : ` (${notes.join('; ')})`}`;
}

/** The proposal is verified again where it is acted on, against the recorded parent and the nodes the search has now. */
function verifyAgain(planner: Planner, state: State, proposal: SearchProposal): string[] {
	const parent = state.nodes.find(node => node.node_id === proposal.parent_id);
	if (parent === undefined) return [`integrity: the parent ${proposal.parent_id} is not a node of the search`];
	const bounds = {allowed: plannerOperations(planner), authorizedTools: planner.policy.authorized_tools, ceilings: planner.policy.ceilings, existing: state.nodes.map(node => node.fingerprint)};
	return verifyProposal(proposal, parent.harness, bounds).map(problem => `${problem.reason}: ${problem.message}`);
}
