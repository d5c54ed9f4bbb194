import {loadCartridge, type LoadedCartridge} from '../../cartridges/index.js';
import {digestJson} from '../../files/digest.js';
import {installRoot} from '../../files/install-root.js';
import {readResponseScript} from '../../scripted/index.js';
import {InputError} from '../input-error.js';
import type {Identities} from './identities.js';
import {digestModuleGraph} from './module-graph.js';
import type {Plan, PlanCartridge} from './plan-schema.js';
import {deciderEntries} from './scorer-entries.js';
import {SelectionError} from './task-selection.js';

/** The code that judges a cartridge's case besides the deciders every plan has: the verdict and the evaluation process. */
const cartridgeJudgeEntries = ['cartridges/judge-case.js', 'cartridges/evaluation-main.js'] as const;

export class CartridgeError extends InputError {
	readonly reason = 'cartridge';
}

/** Loads the cartridge a plan is frozen from; a broken one is bad input, with every problem named. */
export async function loadPlanCartridge(dir: string): Promise<LoadedCartridge> {
	const loaded = await loadCartridge(dir);
	if (!loaded.ok) throw new CartridgeError(`the cartridge ${dir} is broken:\n${loaded.problems.map(problem => `  ${problem}`).join('\n')}`);
	return loaded.cartridge;
}

/** What a plan keeps of a cartridge: its cases, collectors and graders by digest, and its Harness as the baseline. */
export function planCartridgeOf(cartridge: LoadedCartridge): PlanCartridge {
	return {
		name: cartridge.manifest.name,
		dir: cartridge.dir,
		baseline: cartridge.fingerprint,
		suite_digest: cartridge.digests.suite,
		sdk_digest: cartridge.digests.sdk,
		cases: cartridge.cases.map(entry => ({id: entry.id, path: entry.path, digest: entry.digest, expected: entry.expected_digest})),
		collectors: cartridge.collectors.map(module => ({path: module.source.path, source: module.source.source_digest})),
		graders: cartridge.graders.map(module => ({path: module.source.path, source: module.source.source_digest, exports: module.exports.map(entry => ({name: entry.name, marks: entry.marks}))})),
	};
}

/**
 * A cartridge plan's task sources (its cases) and scorer: every case with its expected data, every collector, every
 * grader with its marks, named by their paths in the cartridge, and the module graph of the code that judges and decides.
 */
export async function cartridgeIdentities(planned: PlanCartridge, root = installRoot): Promise<Pick<Identities, 'task_sources' | 'scorer'>> {
	const cases = Object.fromEntries(planned.cases.map(entry => [entry.path, entry.digest]));
	const suite = {
		...Object.fromEntries(planned.cases.map(entry => [entry.path, digestJson({case: entry.digest, expected: entry.expected})])),
		...Object.fromEntries(planned.collectors.map(module => [module.path, module.source])),
		...Object.fromEntries(planned.graders.map(module => [module.path, digestJson({source: module.source, exports: module.exports})])),
	};
	const graph = await digestModuleGraph(root, [...deciderEntries, ...cartridgeJudgeEntries]);
	const files = Object.fromEntries(Object.entries({...graph, ...suite}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
	return {task_sources: {digest: digestJson(cases), files: cases}, scorer: {kind: 'cartridge', digest: digestJson(files), files}};
}

/** The cases a plan's denominator is drawn from (`all`, or a comma list of case ids in the order given), titled by their goal's first line. */
export function cartridgeTasks(cartridge: LoadedCartridge, selection: string): Plan['tasks'] {
	const ids = selection.trim() === 'all' ? cartridge.cases.map(entry => entry.id) : selection.split(',').map(id => id.trim()).filter(id => id !== '');
	const unknown = ids.filter(id => !cartridge.cases.some(entry => entry.id === id));
	if (ids.length === 0) throw new SelectionError('the case selection is empty');
	if (unknown.length > 0) throw new SelectionError(`unknown case${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (the cartridge has ${cartridge.cases.map(entry => entry.id).join(', ')})`);
	if (new Set(ids).size !== ids.length) throw new SelectionError('a case is selected more than once');
	return ids.map(id => cartridge.cases.find(entry => entry.id === id)!).map(entry => ({id: entry.id, title: entry.case.task.goal.split('\n')[0]!.slice(0, 120), tools: []}));
}

/**
 * What differs between a cartridge plan and the cartridge an attempt loaded, beyond the scorer files (which
 * compareIdentities names): the baseline's harness when no candidate cartridge is given, the SDK, the cartridge's name.
 */
export function cartridgeDifferences(planned: PlanCartridge, loaded: LoadedCartridge, candidate: boolean): string[] {
	const out: string[] = [];
	if (loaded.manifest.name !== planned.name) out.push(`cartridge: the plan's cartridge is ${planned.name}, ${loaded.dir} is ${loaded.manifest.name}`);
	if (loaded.digests.sdk !== planned.sdk_digest) out.push(`cartridge: the SDK its code compiles against changed (${planned.sdk_digest} -> ${loaded.digests.sdk})`);
	if (!candidate && loaded.fingerprint.digest !== planned.baseline.digest) {
		out.push(`cartridge: the baseline harness of ${loaded.dir} changed since freezing (${planned.baseline.digest} -> ${loaded.fingerprint.digest}); run a changed cartridge with --candidate-cartridge`);
	}
	return out;
}

