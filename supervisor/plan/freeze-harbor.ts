import {realpathSync} from 'node:fs';
import {findHarborTasks, instructionOf, readHarborTask, taskSourceFiles, verifierFiles, type HarborTask} from '../../tasks/harbor/index.js';
import {digestJson} from '../../files/digest.js';
import {installRoot} from '../../files/install-root.js';
import {InputError} from '../input-error.js';
import type {Identities} from './identities.js';
import {digestModuleGraph} from './module-graph.js';
import {deciderEntries} from './scorer-entries.js';
import {digestSourceSet} from './source-sets.js';
import type {PlanHarbor} from './plan-harbor.js';


/** A Harbor task this machine cannot run, or a folder that holds none: named with every reason, at freeze. */
export class HarborTaskError extends InputError {
	readonly reason = 'harbor_task';
}

/** The code that runs and reads a Harbor verifier, besides the deciders every plan has. */
const verifierEntries = ['tasks/harbor/run-verifier.js'] as const;

export interface HarborFreezeOptions {
	selection: string;
	agentDeadlineMs: number | null;
	memoryBytes: number | null;
}

/** Reads the selected tasks of `dir`; any task this machine cannot stand in for refuses the freeze by its name. */
export function freezeHarbor(dir: string, options: HarborFreezeOptions): PlanHarbor {
	const folders = findHarborTasks(dir);
	if (folders.length === 0) throw new HarborTaskError(`${dir} holds no Harbor task (a folder with task.toml)`);
	const byId = new Map(folders.map(folder => [folder.split('/').pop()!, folder]));
	const ids = selectedIds(options.selection, [...byId.keys()]);
	const read = ids.map(id => ({id, read: readHarborTask(byId.get(id)!, options)}));
	const refused = read.flatMap(({id, read: task}) => (task.ok ? [] : [`Harbor task ${id} refused: ${task.problems.join('; ')}`]));
	if (refused.length > 0) throw new HarborTaskError(refused.join(' | '));
	const tasks = read.map(({read: task}) => (task as {task: HarborTask}).task);
	const workdirs = [...new Set(tasks.map(task => task.workdir))];
	if (workdirs.length > 1) throw new HarborTaskError(`the selected Harbor tasks have different WORKDIRs (${workdirs.join(', ')}): freeze each WORKDIR's tasks as a plan of its own`);
	return {dir: realpathSync(dir), workdir: workdirs[0]!, tasks};
}

function selectedIds(selection: string, known: string[]): string[] {
	if (selection.trim() === 'all') return known;
	const ids = selection.split(',').map(id => id.trim()).filter(id => id !== '');
	if (ids.length === 0) throw new HarborTaskError('the task selection is empty');
	const unknown = ids.filter(id => !known.includes(id));
	if (unknown.length > 0) throw new HarborTaskError(`unknown Harbor task${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (the folder has ${known.join(', ')})`);
	if (new Set(ids).size !== ids.length) throw new HarborTaskError('a Harbor task is selected more than once');
	return ids;
}

/**
 * A Harbor plan's task sources (each task folder without tests/ and solution/) and scorer (every tests/ file and the
 * module graph of the code that runs the verifier and decides).
 */
export async function harborIdentities(harbor: PlanHarbor, root = installRoot): Promise<Pick<Identities, 'task_sources' | 'scorer'>> {
	const task_sources = await digestSourceSet(harbor.tasks.flatMap(task => taskSourceFiles(task.dir)), root);
	const tests = await digestSourceSet(harbor.tasks.flatMap(task => verifierFiles(task.dir)), root);
	const graph = await digestModuleGraph(root, [...deciderEntries, ...verifierEntries]);
	const files = Object.fromEntries(Object.entries({...graph, ...tests.files}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
	return {task_sources, scorer: {kind: 'harbor', digest: digestJson(files), files}};
}

/** Admission re-reads every task: one this machine can no longer stand in for, or whose view changed, is a difference. */
export function harborDifferences(harbor: PlanHarbor): string[] {
	return harbor.tasks.flatMap(recorded => {
		const now = readHarborTask(recorded.dir, {agentDeadlineMs: recorded.agent_timeout_ms, memoryBytes: recorded.memory_bytes});
		if (!now.ok) return [`harbor task ${recorded.id}: ${now.problems.join('; ')}`];
		return JSON.stringify(now.task) === JSON.stringify(recorded) ? [] : [`harbor task ${recorded.id}: its environment or limits changed since freezing`];
	});
}

/** The plan's task list: each Harbor task titled by its instruction's first line. */
export function harborTasksOf(harbor: PlanHarbor): Array<{id: string; title: string; tools: string[]}> {
	return harbor.tasks.map(task => ({id: task.id, title: titleOf(instructionOf(task)) ?? task.id, tools: []}));
}

function titleOf(instruction: string): string | null {
	const line = instruction.split('\n').map(text => text.replace(/^#+\s*/, '').trim()).find(text => text !== '');
	return line === undefined ? null : line.slice(0, 120);
}
