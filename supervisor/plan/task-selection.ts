import {builtinTasks, type TaskDefinition} from '../../tasks/index.js';

export class SelectionError extends Error {
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

/** The suite's tasks by id, for a plan's frozen denominator; null for an id the suite no longer has. */
export function taskById(id: string): TaskDefinition | null {
	return builtinTasks.find(task => task.id === id) ?? null;
}
