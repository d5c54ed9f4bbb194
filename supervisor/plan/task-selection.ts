import {builtinTasks, type TaskDefinition} from '../../tasks/index.js';
import {InputError} from '../input-error.js';

export class SelectionError extends InputError {
	readonly reason = 'unknown_task';
}

/** Resolves `all` or a comma list of task ids, in the order given (suite order for `all`); an unknown id is an error. */
export function resolveSelection(selection: string): TaskDefinition[] {
	const text = selection.trim();
	if (text === 'all') return [...builtinTasks];
	const ids = text.split(',').map(id => id.trim()).filter(id => id.length > 0);
	if (ids.length === 0) throw new SelectionError('the task selection is empty');
	const unknown = ids.filter(id => !builtinTasks.some(task => task.id === id));
	if (unknown.length > 0) {
		throw new SelectionError(`unknown task${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${builtinTasks.map(task => task.id).join(', ')})`);
	}
	const duplicated = ids.filter((id, index) => ids.indexOf(id) !== index);
	if (duplicated.length > 0) throw new SelectionError(`task ${duplicated.join(', ')} selected more than once`);
	return ids.map(id => builtinTasks.find(task => task.id === id)!);
}

/** The ordered denominator: each task once, or `<id>#<k>` for trial k of n, round by round. */
export function denominatorOf(tasks: ReadonlyArray<{id: string}>, repeat: number): string[] {
	if (repeat === 1) return tasks.map(task => task.id);
	return Array.from({length: repeat}, (_, round) => tasks.map(task => `${task.id}#${round + 1}`)).flat();
}

/** The task a denominator entry runs: the entry itself, or its id without the `#<k>` trial suffix. */
export function entryTaskId(entry: string): string {
	return entry.replace(/#[1-9]\d*$/, '');
}

/** The suite's task for a plan's denominator entry; null for an id the suite no longer has. */
export function taskById(entry: string): TaskDefinition | null {
	const id = entryTaskId(entry);
	return builtinTasks.find(task => task.id === id) ?? null;
}
