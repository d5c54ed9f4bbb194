import {GradeChecks} from '../grading/grade-checks.js';
import {changedFiles, workspaceEntries} from '../grading/workspace-files.js';
import {defineTask, taskFile} from '../define-task.js';
import {reference} from './reference.js';

const id = 'answer_from_prompt';
const expected = '12:25';

/** Every HH:MM time in a text. */
function timesIn(text: string): string[] {
	return text.match(/\b\d{1,2}:\d{2}\b/g) ?? [];
}

/** A one-turn task: the answer is computed from the prompt, and the workspace must stay as it was. */
export const answerFromPrompt = defineTask({
	id,
	title: 'Answer a question from the prompt alone, in one turn, leaving the workspace untouched',
	prompt: 'Answer from this message alone, without tools or file changes: a backup job started at 09:47 and ran for 2 hours 38 minutes. Call done with the time it finished, as HH:MM on a 24-hour clock.',
	tools: [],
	reference,
	async grade(workspace, options) {
		const checks = new GradeChecks();
		const times = timesIn(options.finalText ?? '');
		checks.check(`the final answer gives the finish time ${expected}`, times.length === 1 && times[0] === expected,
			options.finalText == null ? 'no final answer was recorded' : `the answer names ${times.length === 0 ? 'no time' : times.join(', ')}`);
		const entries = await workspaceEntries(workspace);
		const extra = entries.filter(name => name !== 'README.md');
		checks.check('no file was added', extra.length === 0, extra.length > 0 ? `added: ${extra.slice(0, 5).join(', ')}` : null);
		const edited = await changedFiles(workspace, taskFile(id, ''), ['README.md']);
		checks.check('README.md is unchanged', edited.length === 0, edited.length > 0 ? edited.join('; ') : null);
		return checks.grade();
	},
});
