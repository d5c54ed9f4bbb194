import type {TaskDefinition} from '../../tasks/index.js';
import type {LoadedConfiguration} from './configuration.js';
import {digestJson} from '../../files/digest.js';
import {packageFingerprints} from './fingerprints.js';
import {installRoot} from '../../files/install-root.js';
import type {Plan} from './plan-schema.js';
import {digestModuleGraph} from './module-graph.js';
import {deciderEntries, taskEntry} from './scorer-entries.js';
import {digestSourceSet} from './source-sets.js';
import {toolVersions} from './tool-versions.js';

/** The parts of a plan that admission recomputes from the machine as it is now. */
export type Identities = Pick<Plan, 'task_sources' | 'scorer' | 'configuration' | 'composition' | 'tool_versions'>;

/** Files of the controller, as pinned, when the plan has one; graders then come from it, not from the suite. */
export interface ControllerFiles {
	identity_digest: string;
	files: Record<string, string>;
}

/** Computes every recorded identity for these tasks (null with a controller, which owns the tasks). */
export async function computeIdentities(
	tasks: TaskDefinition[] | null,
	tools: string[],
	configuration: LoadedConfiguration,
	controller: ControllerFiles | null,
	root = installRoot,
): Promise<Identities> {
	const taskFiles = distinct(tasks ?? []).flatMap(task => task.sourceFiles());
	const task_sources = await digestSourceSet(taskFiles, root);
	let scorer: Identities['scorer'];
	if (controller === null) {
		scorer = await builtinScorer(tasks ?? [], root);
	} else {
		scorer = {kind: 'controller', digest: controller.identity_digest, files: controller.files};
	}
	const packages = await packageFingerprints(root);
	const modules = configuration.value.composition.modules;
	return {
		task_sources,
		scorer,
		configuration: {path: configuration.path, digest: digestJson(configuration.value), value: configuration.value},
		composition: {modules, packages, digest: digestJson({modules, packages})},
		tool_versions: await toolVersions(tools),
	};
}

/**
 * The built-in scorer identity: the selected tasks' own files (definition, data, expected outputs) and every
 * compiled file that the graders and the deciding code import, found from their module graph.
 */
export async function builtinScorer(tasks: TaskDefinition[], root = installRoot): Promise<Identities['scorer']> {
	const graph = await digestModuleGraph(root, [...new Set([...tasks.map(task => taskEntry(task.id)), ...deciderEntries])]);
	const own = await digestSourceSet(distinct(tasks).flatMap(task => task.sourceFiles()), root);
	const files = Object.fromEntries(Object.entries({...own.files, ...graph}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
	return {kind: 'builtin', digest: digestJson(files), files};
}

/** Each task once: a plan repeats its entries (`--repeat`, trials), and each task's folder is walked for its files. */
function distinct(tasks: TaskDefinition[]): TaskDefinition[] {
	return [...new Map(tasks.map(task => [task.id, task])).values()];
}
