import {defineTask, taskFile} from '../define-task.js';
import {GradeChecks} from '../grading/grade-checks.js';
import {runNodeTests} from '../grading/run-node-tests.js';
import {changedFiles} from '../grading/workspace-files.js';
import {testCommand} from '../reference/observe.js';
import {reference} from './reference.js';

const id = 'multi_file_fix';
const protectedFiles = ['test/report.test.js', 'data/order.csv'];

export const multiFileFix = defineTask({
	id,
	title: 'Fix two bugs in different modules of an order report',
	prompt: [
		'The order report in this project prints wrong numbers and its tests fail. The defects may be in more than one module under src/.',
		`Fix them so that \`${testCommand}\` passes. Do not change the tests or the sample data.`,
	].join('\n'),
	tools: ['node'],
	reference,
	async grade(workspace, options) {
		const checks = new GradeChecks();
		const edited = await changedFiles(workspace, taskFile(id, ''), protectedFiles);
		checks.check('the tests and sample data are unchanged', edited.length === 0, edited.length ? `changed: ${edited.join(', ')}` : null);
		const tests = await runNodeTests(workspace, ['test/report.test.js'], options);
		checks.check('the original tests pass', tests.passed, tests.problem);
		return checks.grade();
	},
});
