import {canonicalJson} from '../files/canonical-json.js';
import {applyPatch} from './apply-patch.js';
import {ceilingProblems, type HarnessCeilings} from './ceilings.js';
import {fingerprintHarness} from './fingerprint.js';
import type {Harness} from './harness-schema.js';
import type {HarnessProposal} from './proposal-schema.js';

/** The check a proposal failed: the four of a verified proposal, and duplicates. */
export type ProposalCheck = 'integrity' | 'escalation' | 'ceilings' | 'surfaces' | 'duplicate';

export interface ProposalProblem {
	reason: ProposalCheck;
	message: string;
}

export interface ProposalBounds {
	/** The operations allowed (the policy's, narrowed by the provider's). */
	allowed: readonly string[];
	authorizedTools: readonly string[];
	ceilings: HarnessCeilings;
	/** Digests of the harnesses the search already has. */
	existing: readonly string[];
}

/**
 * Every reason `proposal` may not be acted on against the recorded `parent`; empty when it may. Run where a
 * proposal is made and again wherever it is acted on, so a proposal that was edited in between is caught.
 */
export function verifyProposal(proposal: HarnessProposal, parent: Harness, bounds: ProposalBounds): ProposalProblem[] {
	return [
		...integrityProblems(proposal, parent),
		...escalationProblems(proposal, parent, bounds.authorizedTools),
		...ceilingProblems(proposal.harness, bounds.ceilings).map(message => ({reason: 'ceilings' as const, message})),
		...surfaceProblems(proposal, bounds.allowed),
		...(bounds.existing.includes(proposal.fingerprint.digest) ? [{reason: 'duplicate' as const, message: 'the search already has this harness'}] : []),
	];
}

/** The patch is for this parent, applying it gives exactly the proposed harness, and the fingerprint is that harness's. */
function integrityProblems(proposal: HarnessProposal, parent: Harness): ProposalProblem[] {
	const applied = applyPatch(parent, proposal.patch);
	const problems: ProposalProblem[] = applied.ok ? [] : applied.problems.map(problem => ({reason: 'integrity', message: `${problem.reason}: ${problem.message}`}));
	const proposed = fingerprintHarness(proposal.harness);
	if (applied.ok && fingerprintHarness(applied.harness).digest !== proposed.digest) problems.push({reason: 'integrity', message: 'the proposed harness is not the patch applied to the parent'});
	if (canonicalJson(proposal.fingerprint) !== canonicalJson(proposed)) problems.push({reason: 'integrity', message: 'the recorded fingerprint is not the proposed harness\'s'});
	return problems;
}

/** The child enables nothing outside the parent's enabled set and the authorized tools. */
function escalationProblems(proposal: HarnessProposal, parent: Harness, authorized: readonly string[]): ProposalProblem[] {
	const granted = proposal.harness.enabled_tools.filter(name => !parent.enabled_tools.includes(name) || !authorized.includes(name)).sort();
	return granted.length === 0 ? [] : [{reason: 'escalation', message: `enabled tools outside the parent's enabled set and the authorized tools: ${granted.join(', ')}`}];
}

function surfaceProblems(proposal: HarnessProposal, allowed: readonly string[]): ProposalProblem[] {
	const outside = [...new Set(proposal.patch.operations.map(operation => operation.op).filter(op => !allowed.includes(op)))].sort();
	return outside.length === 0 ? [] : [{reason: 'surfaces', message: `operations outside the allowed surfaces: ${outside.join(', ')}`}];
}
