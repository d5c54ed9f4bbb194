import t from 'tap';
import {applyPatch, builtinAgent, fingerprintHarness, HarnessPatch, patchOperationNames, verifyProposal, type Harness, type HarnessCeilings, type HarnessProposal, type PatchOperation, type ProposalBounds} from '../../harness/index.js';

const ceilings: HarnessCeilings = {max_steps: 60, deadline_ms: 300_000, system_chars: 4000, tool_description_chars: 600, template_chars: 2000};
const parent: Harness = builtinAgent;
const bounds: ProposalBounds = {allowed: patchOperationNames, authorizedTools: builtinAgent.enabled_tools, ceilings, existing: [fingerprintHarness(parent).digest]};

function proposalOf(operations: PatchOperation[]): HarnessProposal {
	const patch = HarnessPatch.parse({schema: 'harness-lab/harness-patch@1', base: fingerprintHarness(parent), operations, rationale: 'test'});
	const applied = applyPatch(parent, patch);
	if (!applied.ok) throw new Error(JSON.stringify(applied.problems));
	return {patch, harness: applied.harness, fingerprint: fingerprintHarness(applied.harness)};
}

const reasons = (proposal: HarnessProposal, over: Partial<ProposalBounds> = {}, of: Harness = parent): string[] => verifyProposal(proposal, of, {...bounds, ...over}).map(problem => problem.reason);
const fewerSteps = proposalOf([{op: 'set_stopping_limits', max_steps: 20}]);

t.test('a proposal the patch gives, within every bound, passes', async t => {
	t.same(verifyProposal(fewerSteps, parent, bounds), []);
});

t.test('integrity: the patch must be for this parent and give exactly the proposed harness', async t => {
	const otherParent = {...structuredClone(parent), name: 'other'};
	t.same(reasons(fewerSteps, {}, otherParent), ['integrity'], 'a patch for another parent');
	const edited = structuredClone(fewerSteps);
	edited.harness.instructions.system = 'edited after the patch';
	edited.fingerprint = fingerprintHarness(edited.harness);
	t.same(reasons(edited), ['integrity'], 'a harness the patch does not give');
	t.match(verifyProposal(edited, parent, bounds)[0]!.message, /not the patch applied to the parent/);
	t.same(reasons({...fewerSteps, fingerprint: fingerprintHarness(parent)}), ['integrity', 'duplicate'], 'a fingerprint that is not the harness\'s');
});

t.test('escalation: the child enables nothing outside parent.enabled ∩ authorized', async t => {
	const withGrep: Harness = {...structuredClone(parent), tools: [...structuredClone(parent.tools), {name: 'grep', description: 'Search', parameters: {type: 'object'}, implementation: 'builtin:grep'}]};
	const grants = structuredClone(fewerSteps);
	grants.harness.tools = withGrep.tools;
	grants.harness.enabled_tools = [...parent.enabled_tools, 'grep'];
	grants.fingerprint = fingerprintHarness(grants.harness);
	t.same(reasons(grants), ['integrity', 'escalation'], 'a harness the patch does not give, and a grant');
	const narrowed = proposalOf([{op: 'set_enabled_tools', enabled: ['read_file', 'write_file', 'done']}]);
	t.same(reasons(narrowed, {authorizedTools: ['read_file', 'done']}), ['escalation'], 'a tool the parent enables but the policy does not authorize');
});

t.test('ceilings: the proposed harness is within the experiment\'s ceilings', async t => {
	t.same(reasons(proposalOf([{op: 'set_stopping_limits', max_steps: 61}])), ['ceilings']);
});

t.test('surfaces: every operation is allowed by the policy and the provider', async t => {
	t.same(reasons(fewerSteps, {allowed: ['set_system_instructions']}), ['surfaces']);
	t.match(verifyProposal(fewerSteps, parent, {...bounds, allowed: []})[0]!.message, /set_stopping_limits/);
});

t.test('duplicates: a harness the search already has', async t => {
	t.same(reasons(fewerSteps, {existing: [fewerSteps.fingerprint.digest]}), ['duplicate']);
});

t.test('several checks fail at once, each named', async t => {
	const proposal = proposalOf([{op: 'set_stopping_limits', max_steps: 61}, {op: 'set_enabled_tools', enabled: ['read_file', 'write_file', 'done']}]);
	t.same(reasons(proposal, {allowed: ['set_stopping_limits'], authorizedTools: ['read_file', 'done'], existing: [proposal.fingerprint.digest]}), ['escalation', 'ceilings', 'surfaces', 'duplicate']);
});
