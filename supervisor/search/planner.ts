import {applyPatch, fingerprintHarness, fingerprintPatch, verifyProposal, HarnessPatch, type Harness, type HarnessFingerprint, type PatchOperationName} from '../../harness/index.js';
import {digestJson} from '../../files/digest.js';
import type {SearchPolicy} from './policy-schema.js';
import {ProviderContractError, type ModelCallGate, type MutationProvider, type SearchProvider} from './providers.js';
import {Choice, fingerprintContext, type MutationRequest, type NodeView, type PlanOutcome, type SearchContext, type SearchProposal} from './search-record.js';

export interface Planner {
	search: SearchProvider;
	mutation: MutationProvider;
	policy: SearchPolicy;
}

/** The gate of a plan that may call no model (planning replay, scripted providers). */
export const noModelCalls: ModelCallGate = {
	async call() {
		throw new ProviderContractError('a provider called a model where no model call is allowed');
	},
};

/** The operations a plan may ask for: the policy's, narrowed by what the mutation provider can write. */
export function plannerOperations(planner: Planner): PatchOperationName[] {
	return planner.policy.allowed_operations.filter(op => planner.mutation.operations.includes(op));
}

/**
 * At most one verified proposal from `context`: select a base, ask for a patch, apply, verify and dedupe it,
 * asking again at most `max_retries` times. `harnesses` are the recorded nodes'. It holds no state between plans.
 */
export async function plan(planner: Planner, context: SearchContext, harnesses: ReadonlyMap<string, Harness>, gate: ModelCallGate = noModelCalls): Promise<PlanOutcome> {
	const context_fingerprint = fingerprintContext(context);
	const choice = checkedChoice(await planner.search.select(context, gate));
	if (choice.kind === 'none') return {context_fingerprint, choice, requests: [], responses: [], refusals: [], proposal: null, exhausted: null, reason: `the search provider chose nothing: ${choice.reason}`};
	const base = checkedBase(context, harnesses, choice.node_id);
	const outcome: PlanOutcome = {context_fingerprint, choice, requests: [], responses: [], refusals: [], proposal: null, exhausted: null, reason: ''};
	for (let attempt = 0; attempt <= planner.policy.max_retries; attempt += 1) {
		const request = requestOf(planner, context, base.view, fingerprintHarness(base.harness), outcome, attempt);
		outcome.requests.push(request);
		const patch = checkedPatch(await planner.mutation.mutate(request, base.harness, gate));
		outcome.responses.push(patch);
		if (patch === null) return {...outcome, exhausted: base.view.node_id, reason: `the mutation provider has nothing more for ${base.view.node_id}`};
		const checked = proposalOf(planner, request, base.harness, patch, choice.rationale);
		if (checked.ok) return {...outcome, proposal: checked.proposal, reason: 'proposed, verified and new'};
		outcome.refusals.push({patch_fingerprint: fingerprintPatch(patch), operations: patch.operations.map(operation => operation.op), reasons: checked.reasons});
	}
	return {...outcome, reason: `every patch was refused within ${planner.policy.max_retries} retries`};
}

/** The chosen node must be one the context has, evaluated, and not exhausted; otherwise the provider broke its contract. */
function checkedBase(context: SearchContext, harnesses: ReadonlyMap<string, Harness>, nodeId: string): {view: NodeView; harness: Harness} {
	const view = context.nodes.find(node => node.node_id === nodeId);
	const harness = harnesses.get(nodeId);
	if (view === undefined || harness === undefined) throw new ProviderContractError(`the search provider chose ${nodeId}, a node the context does not have`);
	// Asking again for an exhausted node would get the same nothing, round after round.
	if (context.exhausted.includes(nodeId)) throw new ProviderContractError(`the search provider chose ${nodeId}, which the context lists as exhausted`);
	return {view, harness};
}

function requestOf(planner: Planner, context: SearchContext, base: NodeView, baseFingerprint: HarnessFingerprint, outcome: PlanOutcome, attempt: number): MutationRequest {
	return {
		base_node_id: base.node_id,
		base: baseFingerprint,
		allowed_operations: plannerOperations(planner),
		ceilings: planner.policy.ceilings,
		feedback: lineageOf(context, base),
		existing: existingOf(context),
		refused: outcome.refusals.map(refusal => refusal.patch_fingerprint).sort(),
		round: context.round,
		attempt,
	};
}

/** The base and its ancestors, base first: the feedback a provider reasons from. */
function lineageOf(context: SearchContext, base: NodeView): NodeView[] {
	const lineage: NodeView[] = [];
	let node: NodeView | undefined = base;
	while (node !== undefined && !lineage.includes(node)) {
		lineage.push(node);
		const parent: string | undefined = node.parent_ids[0];
		node = context.nodes.find(other => other.node_id === parent);
	}
	return lineage;
}

const existingOf = (context: SearchContext): string[] => [...new Set(context.nodes.map(node => node.fingerprint))].sort();

/** A search provider returns a choice; anything else breaks its contract. */
function checkedChoice(value: unknown): Choice {
	const parsed = Choice.safeParse(value);
	if (!parsed.success) throw new ProviderContractError('the search provider returned something that is not a choice');
	return parsed.data;
}

/** A mutation provider returns one patch or none; anything else breaks its contract. */
function checkedPatch(value: unknown): HarnessPatch | null {
	if (value === null) return null;
	const parsed = HarnessPatch.safeParse(value);
	if (!parsed.success) throw new ProviderContractError(`the mutation provider returned something that is not one harness patch: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
	return parsed.data;
}

/** Applies and verifies a patch; every reason it cannot be proposed, or the proposal. */
function proposalOf(planner: Planner, request: MutationRequest, base: Harness, patch: HarnessPatch, rationale: string): {ok: true; proposal: SearchProposal} | {ok: false; reasons: string[]} {
	const bounds = {allowed: request.allowed_operations, authorizedTools: planner.policy.authorized_tools, ceilings: planner.policy.ceilings};
	const applied = applyPatch(base, patch, bounds);
	if (!applied.ok) return {ok: false, reasons: applied.problems.map(problem => `${problem.reason}: ${problem.message}`)};
	const proposal: SearchProposal = {patch, harness: applied.harness, fingerprint: fingerprintHarness(applied.harness), parent_id: request.base_node_id, reason: `${rationale}; ${patch.rationale}`};
	const problems = verifyProposal(proposal, base, {...bounds, existing: request.existing});
	return problems.length === 0 ? {ok: true, proposal} : {ok: false, reasons: problems.map(problem => `${problem.reason}: ${problem.message}`)};
}

/** The fingerprint of a proposal, which names the node it creates. */
export function fingerprintProposal(proposal: SearchProposal): string {
	return digestJson(proposal);
}
