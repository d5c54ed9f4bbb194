import {defineTask, taskFile} from '../define-task.js';
import {GradeChecks} from '../grading/grade-checks.js';
import {runNodeTests} from '../grading/run-node-tests.js';
import {changedFiles} from '../grading/workspace-files.js';
import {testCommand} from '../reference/observe.js';
import {reference} from './reference.js';

const id = 'implement_function';
const testFile = 'test/slugify.test.js';

export const implementFunction = defineTask({
	id,
	title: 'Implement a specified function so that its tests pass',
	prompt: [
		'src/slugify.js documents a slugify function but does not implement it. Implement it as documented.',
		`The tests in test/slugify.test.js must pass (run \`${testCommand}\`); do not change them.`,
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
