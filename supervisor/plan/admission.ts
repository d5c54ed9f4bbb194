import type {LoadedCartridge} from '../../cartridges/index.js';
import type {TaskDefinition} from '../../tasks/index.js';
import {cartridgeDifferences, cartridgeIdentities, planCartridgeOf} from './cartridge-identity.js';
import {loadConfiguration} from './configuration.js';
import {digestScheme} from '../../files/digest.js';
import {computeIdentities, type Identities} from './identities.js';
import {packageDifferences, type PackageFingerprint} from './fingerprints.js';
import {installRoot} from '../../files/install-root.js';
import {ModuleGraphError} from './module-graph.js';
import {computePlanDigest} from './plan-digest.js';
import type {Plan} from './plan-schema.js';
import {denominatorOf, taskById} from './task-selection.js';
import {checkControllerFiles} from './freeze-controller.js';
import {admitSandbox} from './freeze-sandbox.js';
import {admitResponses} from './freeze-responses.js';
import {ControllerIdentity} from '../../controller-protocol/index.js';
import {harborDifferences, harborIdentities} from './freeze-harbor.js';

export interface AdmissionResult {
	admitted: boolean;
	/** Every difference found, each naming what changed; empty when admitted. */
	differences: string[];
	/** The suite's tasks in frozen order (null entries for ids it lacks); empty with a controller. */
	tasks: Array<TaskDefinition | null>;
	/** The installation's package fingerprints as admission measured them (null when it could not): the attempt record reuses them. */
	packages: PackageFingerprint[] | null;
}

export interface AdmissionOptions {
	configPath: string | null;
	/** A cartridge plan's cartridge as the attempt loaded it (the plan's, or `--candidate-cartridge`); null when it would not load. */
	cartridge?: {loaded: LoadedCartridge | null; problems: string[]; candidate: boolean};
	cwd?: string;
	root?: string;
}

/** Recomputes every identity the plan records and names every difference; any difference rejects the attempt. */
export async function admit(plan: Plan, options: AdmissionOptions): Promise<AdmissionResult> {
	const differences: string[] = [];
	if (plan.digest_scheme !== digestScheme) differences.push(`digest scheme: plan uses ${plan.digest_scheme}, this harness-lab uses ${digestScheme}`);
	const computed = computePlanDigest(plan);
	if (computed !== plan.plan_digest) differences.push(`plan digest: recorded ${plan.plan_digest}, the plan's contents give ${computed} (the plan was edited after freezing)`);
	const ids = plan.tasks.map(task => task.id);
	const entries = plan.controller === null ? denominatorOf(ids.map(id => ({id})), plan.repeat) : ids;
	if (!sameSet(entries, plan.task_ids) || new Set(plan.task_ids).size !== plan.task_ids.length) differences.push('plan: the task list and the ordered task ids disagree');
	const builtin = plan.controller === null && plan.cartridge === undefined && plan.harbor === undefined;
	const tasks = builtin ? plan.task_ids.map(taskById) : [];
	plan.task_ids.forEach((id, index) => {
		if (builtin && tasks[index] === null) differences.push(`task ${id}: no longer in the built-in suite`);
	});
	let configuration;
	let packages: PackageFingerprint[] | null = null;
	try {
		configuration = await loadConfiguration(options.configPath, options.cwd);
	} catch (error) {
		differences.push(`configuration: ${(error as Error).message}`);
	}
	differences.push(...admitSandbox(plan.sandbox));
	differences.push(...await admitResponses(plan.provider));
	if (plan.controller !== null) differences.push(...await checkControllerFiles(ControllerIdentity.parse(plan.controller.identity)));
	if (configuration !== undefined) {
		const present = tasks.filter((task): task is TaskDefinition => task !== null);
		try {
			const now = await computeIdentities(
				plan.controller === null ? present : null,
				plan.tasks.flatMap(task => task.tools),
				configuration,
				plan.controller === null ? null : {identity_digest: plan.controller.identity_digest, files: plan.controller.identity.files},
				options.root ?? installRoot,
			);
			packages = now.composition.packages;
			differences.push(...await cartridgeAdmission(plan, now, options));
			if (plan.harbor !== undefined) Object.assign(now, await harborIdentities(plan.harbor, options.root ?? installRoot));
			if (plan.harbor !== undefined) differences.push(...harborDifferences(plan.harbor));
			differences.push(...compareIdentities(plan, now));
		} catch (error) {
			// An installation whose deciding code no longer links cannot be the one frozen.
			if (!(error instanceof ModuleGraphError)) throw error;
			differences.push(`scorer: ${error.message}`);
		}
	}
	return {admitted: differences.length === 0, differences, tasks, packages};
}

/** A cartridge plan: the loaded cartridge's suite becomes the identities compared, and what else it must keep is checked. */
async function cartridgeAdmission(plan: Plan, now: Identities, options: AdmissionOptions): Promise<string[]> {
	if (plan.cartridge === undefined) return [];
	const given = options.cartridge ?? {loaded: null, problems: ['no cartridge was given to admission'], candidate: false};
	if (given.loaded === null) {
		// Nothing to recompute the suite from: the load problems say why, without a list of every scorer file as missing.
		Object.assign(now, {task_sources: plan.task_sources, scorer: plan.scorer});
		return given.problems.map(problem => `cartridge: ${problem}`);
	}
	Object.assign(now, await cartridgeIdentities(planCartridgeOf(given.loaded), options.root ?? installRoot));
	return cartridgeDifferences(plan.cartridge, given.loaded, given.candidate);
}

/** Names every way the recomputed identities differ from the recorded ones. */
export function compareIdentities(recorded: Identities, now: Identities): string[] {
	const out: string[] = [];
	out.push(...diffFiles('task sources', recorded.task_sources.files, now.task_sources.files));
	if (recorded.task_sources.digest !== now.task_sources.digest && out.length === 0) out.push('task sources: digest differs');
	const scorerBefore = out.length;
	if (recorded.scorer.kind !== 'controller') out.push(...diffFiles('scorer', recorded.scorer.files, now.scorer.files));
	if (recorded.scorer.digest !== now.scorer.digest && out.length === scorerBefore) out.push(`scorer: identity ${recorded.scorer.digest} is now ${now.scorer.digest}`);
	if (recorded.configuration.path !== now.configuration.path) {
		out.push(`configuration: frozen from ${recorded.configuration.path ?? '(defaults, no file)'}, now read from ${now.configuration.path ?? '(defaults, no file)'}`);
	}
	if (recorded.configuration.digest !== now.configuration.digest) out.push(`configuration: digest ${recorded.configuration.digest} is now ${now.configuration.digest}`);
	const before = recorded.composition.modules.join(', ');
	const after = now.composition.modules.join(', ');
	if (before !== after) out.push(`composition: modules were [${before}], now [${after}]`);
	out.push(...packageDifferences(recorded.composition.packages, now.composition.packages));
	for (const tool of new Set([...Object.keys(recorded.tool_versions), ...Object.keys(now.tool_versions)])) {
		const was = recorded.tool_versions[tool] ?? null;
		const is = now.tool_versions[tool] ?? null;
		if (was !== is) out.push(`tool ${tool}: version ${was ?? '(missing)'} is now ${is ?? '(missing)'}`);
	}
	return out;
}

function diffFiles(label: string, before: Record<string, string | null>, after: Record<string, string | null>): string[] {
	const out: string[] = [];
	for (const name of Object.keys(before)) {
		if (!(name in after)) out.push(`${label}: ${name} is no longer part of the set`);
		else if (before[name] !== after[name]) out.push(`${label}: ${name} changed (${before[name] ?? 'missing'} -> ${after[name] ?? 'missing'})`);
	}
	for (const name of Object.keys(after)) if (!(name in before)) out.push(`${label}: ${name} was added`);
	return out;
}

/** A lookup in a Set: a plan of 10,000 entries made `includes` 10^8 comparisons, most of its admission's second. */
function sameSet(a: string[], b: string[]): boolean {
	const inB = new Set(b);
	return a.length === b.length && a.every(item => inB.has(item));
}
