import {defineTask, taskFile} from '../define-task.js';
import {GradeChecks} from '../grading/grade-checks.js';
import {runNodeTests} from '../grading/run-node-tests.js';
import {changedFiles} from '../grading/workspace-files.js';
import {testCommand} from '../reference/observe.js';
import {reference} from './reference.js';

const id = 'multi_file_fix';
const protectedFiles = ['test/report.test.js', 'data/order.csv'];
/** The top-level tests of test/report.test.js, each of which must run and pass. */
const testNames = [
	'order lines are parsed into name, quantity and unit price',
	'the total sums quantity times unit price',
	'the item count sums quantities',
	'money has two decimals',
	'the sample order is summarized',
];

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
		checks.check('the tests and sample data are unchanged', edited.length === 0, edited.length ? edited.join('; ') : null);
		const tests = await runNodeTests(workspace, {files: ['test/report.test.js'], names: testNames}, options);
		checks.check('the original tests pass', tests.passed, tests.problem);
		return checks.grade();
	},
});
