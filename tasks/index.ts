import {answerFromPrompt} from './answer_from_prompt/task.js';
import {backgroundJobPoll} from './background_job_poll/task.js';
import {implementFunction} from './implement_function/task.js';
import {jsonConfigMigration} from './json_config_migration/task.js';
import {multiFileFix} from './multi_file_fix/task.js';
import {salesReport} from './sales_report/task.js';
import {testFailureFix} from './test_failure_fix/task.js';
import type {TaskDefinition} from './task-definition.js';

export {Grade, type TaskDefinition} from './task-definition.js';
export {missingTools} from './required-tools.js';
export type {ReferenceScript} from './reference/reference-script.js';

/** The built-in suite, in its fixed order. */
export const builtinTasks: TaskDefinition[] = [
	testFailureFix,
	multiFileFix,
	jsonConfigMigration,
	salesReport,
	backgroundJobPoll,
	implementFunction,
	answerFromPrompt,
];

/** The built-in task with this id, or null. */
export function getTask(id: string): TaskDefinition | null {
	return builtinTasks.find(task => task.id === id) ?? null;
}
