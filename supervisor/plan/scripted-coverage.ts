import type {ControllerTask} from '../../controller-protocol/index.js';
import {builtinTasks} from '../../tasks/index.js';
import type {PlanProvider} from './plan-schema.js';
import {ResponseScriptError} from './freeze-responses.js';

/**
 * Refuses, at freeze, a controller plan the scripted provider cannot play: without a response script it answers only
 * prompts that carry a built-in task's, so every other controller task would fail at run time with HTTP 400
 * (unknown_task), one identical failure per task after a whole attempt. Refused rather than warned: such a plan can
 * give no result at all, and the fix is one flag.
 */
export function requireScriptedPlay(provider: PlanProvider, responsesPath: string | null, tasks: readonly ControllerTask[]): void {
	if (provider.kind !== 'scripted' || responsesPath !== null) return;
	const unplayable = tasks.filter(task => !builtinTasks.some(builtin => task.prompt.includes(builtin.prompt))).map(task => task.id);
	if (unplayable.length === 0) return;
	const named = unplayable.length > 3 ? `${unplayable.slice(0, 3).join(', ')} and ${unplayable.length - 3} more` : unplayable.join(', ');
	throw new ResponseScriptError(`the scripted provider has nothing to play for controller task${unplayable.length === 1 ? '' : 's'} ${named} (no built-in task's prompt): give --responses FILE with a conversation per task id, or --provider openai-compatible`);
}
