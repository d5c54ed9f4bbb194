import {canonicalJson} from '../files/canonical-json.js';
import {ceilingProblems, type HarnessCeilings} from './ceilings.js';
import {fingerprintHarness} from './fingerprint.js';
import {type Harness, parseHarness} from './harness-schema.js';
import type {HarnessPatch, PatchOperation} from './patch-schema.js';

/** Why a patch was refused; a refusal carries every one that applies. */
export type PatchRefusalReason =
	| 'stale-base'
	| 'operation-not-allowed'
	| 'tool-not-defined'
	| 'tool-not-enabled'
	| 'tool-not-authorized'
	| 'template-variables'
	| 'invalid-harness'
	| 'over-ceiling'
	| 'no-op';

export interface PatchProblem {
	reason: PatchRefusalReason;
	message: string;
}

export type PatchResult = {ok: true; harness: Harness} | {ok: false; problems: PatchProblem[]};

export interface PatchBounds {
	/** The operations allowed; every operation when absent. */
	allowed?: readonly string[];
	/** The tools a child may enable; any the base enables when absent. */
	authorizedTools?: readonly string[];
	ceilings?: HarnessCeilings;
}

/**
 * The child `patch` describes, applied to `base`, or every reason it is refused. The enabled set only narrows:
 * enabling a tool is a grant, which no patch can make.
 */
export function applyPatch(base: Harness, patch: HarnessPatch, bounds: PatchBounds = {}): PatchResult {
	const baseFingerprint = fingerprintHarness(base);
	const problems: PatchProblem[] = [];
	if (canonicalJson(patch.base) !== canonicalJson(baseFingerprint)) problems.push({reason: 'stale-base', message: 'the patch was written against another base harness'});
	const record = structuredClone(base);
	for (const operation of patch.operations) {
		if (bounds.allowed !== undefined && !bounds.allowed.includes(operation.op)) {
			problems.push({reason: 'operation-not-allowed', message: `${operation.op} is outside the allowed surfaces`});
			continue;
		}
		problems.push(...applyOperation(record, base, operation, bounds));
	}
	problems.push(...resultProblems(record, baseFingerprint.digest, bounds, problems.length === 0));
	return problems.length === 0 ? {ok: true, harness: record} : {ok: false, problems};
}

/** Changes `record` by one operation checked against `base`; what stops it is returned, and the record left as it was. */
function applyOperation(record: Harness, base: Harness, operation: PatchOperation, bounds: PatchBounds): PatchProblem[] {
	switch (operation.op) {
		case 'set_system_instructions':
			record.instructions.system = operation.system;
			return [];
		case 'set_task_template': {
			if (canonicalJson([...operation.template.variables].sort()) !== canonicalJson([...base.task_template.variables].sort())) {
				return [{reason: 'template-variables', message: `a task template must declare the base's variables (${base.task_template.variables.join(', ')}), not ${operation.template.variables.join(', ') || 'none'}`}];
			}
			record.task_template = operation.template;
			return [];
		}
		case 'set_tool_description': {
			const tool = record.tools.find(defined => defined.name === operation.tool);
			if (tool === undefined) return [{reason: 'tool-not-defined', message: `tool ${operation.tool} is not defined in the base`}];
			tool.description = operation.description;
			return [];
		}
		case 'set_enabled_tools': {
			const problems = enabledProblems(operation.enabled, base, bounds);
			if (problems.length === 0) record.enabled_tools = operation.enabled;
			return problems;
		}
		case 'set_context_policy':
			// Written as given: a policy the engine does not know makes the result an invalid harness, said there.
			(record.context as {history: string}).history = operation.history;
			return [];
		case 'set_stopping_limits':
			record.limits = {
				max_steps: operation.max_steps ?? record.limits.max_steps,
				deadline_ms: operation.deadline_ms ?? record.limits.deadline_ms,
			};
			return [];
	}
}

/** An enabled set may only keep tools the base enables and the policy authorizes. */
function enabledProblems(enabled: readonly string[], base: Harness, bounds: PatchBounds): PatchProblem[] {
	const problems: PatchProblem[] = [];
	const widened = [...new Set(enabled.filter(name => !base.enabled_tools.includes(name)))].sort();
	if (widened.length > 0) problems.push({reason: 'tool-not-enabled', message: `tools the base does not enable cannot be enabled by a patch (enabling is a grant): ${widened.join(', ')}`});
	const authorized = bounds.authorizedTools;
	const outside = authorized === undefined ? [] : [...new Set(enabled.filter(name => !authorized.includes(name)))].sort();
	if (outside.length > 0) problems.push({reason: 'tool-not-authorized', message: `tools outside the authorized set: ${outside.join(', ')}`});
	return problems;
}

/** The checks on the whole child: a valid harness, within the ceilings, and (when nothing else is wrong) not the base again. */
function resultProblems(record: Harness, baseDigest: string, bounds: PatchBounds, otherwiseClean: boolean): PatchProblem[] {
	const parsed = parseHarness(record);
	if (!parsed.ok) return [{reason: 'invalid-harness', message: `the result is not a valid harness: ${parsed.problem}`}];
	const problems: PatchProblem[] = bounds.ceilings === undefined ? [] : ceilingProblems(parsed.harness, bounds.ceilings).map(message => ({reason: 'over-ceiling', message}));
	if (otherwiseClean && problems.length === 0 && fingerprintHarness(parsed.harness).digest === baseDigest) problems.push({reason: 'no-op', message: 'the patch changes nothing the harness fingerprint covers'});
	return problems;
}
