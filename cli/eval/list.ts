import {okExit} from '../exit-codes.js';
import type {EvalMode} from './eval-mode.js';
import {printResult} from './print-result.js';

interface ListFlags {
	task: string;
	json?: boolean;
}

/** `hlab eval --list`: the tasks a selection resolves to. */
export const listMode: EvalMode = {
	name: 'list',
	addTrigger: command => command.option('--list', 'print the tasks a selection resolves to'),
	own: null,
	run: async (flags: ListFlags) => list(flags),
};

async function list(flags: ListFlags): Promise<number> {
	const {resolveSelection} = await import('../../supervisor/plan/task-selection.js');
	const tasks = resolveSelection(flags.task);
	printResult(flags, tasks.map(task => `${task.id}\t${task.title}${task.tools.length > 0 ? `\t(needs ${task.tools.join(', ')})` : ''}`).join('\n'),
		{tasks: tasks.map(task => ({id: task.id, title: task.title, tools: task.tools}))});
	return okExit;
}
