import {defineTask} from '../define-task.js';
import {untouchedTestsPass} from '../grading/untouched-tests-pass.js';
import {testCommand} from '../reference/observe.js';
import {reference} from './reference.js';

const id = 'implement_function';
const testFile = 'test/slugify.test.js';
/** The top-level tests of the test file, each of which must run and pass. */
const testNames = [
	'words are lower-cased and joined by hyphens',
	'runs of other characters become one hyphen, none at the ends',
	'accents are removed',
	'digits are kept',
	'a long slug is cut at a hyphen within the limit',
];

export const implementFunction = defineTask({
	id,
	title: 'Implement a specified function so that its tests pass',
	prompt: [
		'src/slugify.js documents a slugify function but does not implement it. Implement it as documented.',
		`The tests in test/slugify.test.js must pass (run \`${testCommand}\`); do not change them.`,
	].join('\n'),
	tools: ['node'],
	reference,
	grade: untouchedTestsPass(id, testFile, testNames),
});
