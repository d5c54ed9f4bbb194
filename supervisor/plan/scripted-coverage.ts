import type {ControllerTask} from '../../controller-protocol/index.js';
import {builtinTasks} from '../../tasks/index.js';
import type {PlanProvider} from './plan-schema.js';

/**
 * What an attempt of a controller plan will do when the scripted provider has nothing to play for its tasks: without
 * a response script it answers only prompts that carry a built-in task's, so every other task fails with HTTP 400
 * (unknown_task), after a whole attempt. Warned, not refused: such a plan is what `check controller` takes (it
 * verifies the framework, and its tasks failing does not matter), and the docs freeze one for it.
 */
export function unplayableWarning(provider: PlanProvider, responsesPath: string | null, tasks: readonly ControllerTask[]): string | null {
	if (provider.kind !== 'scripted' || responsesPath !== null) return null;
	const unplayable = tasks.filter(task => !builtinTasks.some(builtin => task.prompt.includes(builtin.prompt))).map(task => task.id);
	if (unplayable.length === 0) return null;
	const named = unplayable.length > 3 ? `${unplayable.slice(0, 3).join(', ')} and ${unplayable.length - 3} more` : unplayable.join(', ');
	const plural = unplayable.length === 1 ? '' : 's';
	return `the scripted provider has nothing to play for controller task${plural} ${named} (no built-in task's prompt): an attempt fails ${unplayable.length === 1 ? 'it' : 'each'} with reason provider (HTTP 400 unknown_task); to run ${unplayable.length === 1 ? 'it' : 'them'} offline, freeze with --responses FILE (a conversation per task id), or use --provider openai-compatible`;
}
