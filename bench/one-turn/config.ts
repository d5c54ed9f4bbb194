import {scriptedModel, systemPrompt, toolDefinitions} from '../../engine/index.js';
import {getTask} from '../../tasks/index.js';

/** The built-in one-turn task every one-turn bench runs: its reference answers on the first model call. */
export const oneTurnTaskId = 'answer_from_prompt';

export const oneTurnPrompt = getTask(oneTurnTaskId)!.prompt;

/** The chat request the engine makes for that task; the floor and the peer send the same one. */
export const oneTurnMessages = [{role: 'system', content: systemPrompt}, {role: 'user', content: oneTurnPrompt}] as const;

export const oneTurnRequest = {model: scriptedModel, messages: oneTurnMessages, tools: toolDefinitions()};

/** The answer the task's grader passes, as a trivial host gives it without a model. */
export const oneTurnAnswer = 'The job finished at 12:25.';
