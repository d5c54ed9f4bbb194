import {defineTask} from '../define-task.js';
import {untouchedTestsPass} from '../grading/untouched-tests-pass.js';
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
	grade: untouchedTestsPass(id, testFile),
});
