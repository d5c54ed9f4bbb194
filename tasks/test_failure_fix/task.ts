import {defineTask, taskFile} from '../define-task.js';
import {GradeChecks} from '../grading/grade-checks.js';
import {runNodeTests} from '../grading/run-node-tests.js';
import {changedFiles} from '../grading/workspace-files.js';
import {testCommand} from '../reference/observe.js';
import {reference} from './reference.js';

const id = 'test_failure_fix';
const testFile = 'test/discount.test.js';

export const testFailureFix = defineTask({
	id,
	title: 'Fix the bug that makes a node --test suite fail',
	prompt: [
		'The test suite of this small price library fails. Find the bug in the source and fix it.',
		`Run the tests with \`${testCommand}\`. Do not change the tests.`,
	].join('\n'),
	tools: ['node'],
	reference,
	async grade(workspace, options) {
		const checks = new GradeChecks();
		const edited = await changedFiles(workspace, taskFile(id, ''), [testFile]);
		checks.check('the test file is unchanged', edited.length === 0, edited.length ? `${testFile} differs from the original` : null);
		const tests = await runNodeTests(workspace, [testFile], options);
		checks.check('the original tests pass', tests.passed, tests.problem);
		return checks.grade();
	},
});
