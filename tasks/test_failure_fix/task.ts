import {defineTask} from '../define-task.js';
import {untouchedTestsPass} from '../grading/untouched-tests-pass.js';
import {testCommand} from '../reference/observe.js';
import {reference} from './reference.js';

const id = 'test_failure_fix';
const testFile = 'test/discount.test.js';
/** The top-level tests of the test file, each of which must run and pass. */
const testNames = [
	'a discount takes the percentage off the price',
	'a discount rounds to the nearest cent',
	'no discount and a full discount',
	'an impossible percentage is refused',
	'bulk discounts by quantity',
	'an order total applies the bulk discount',
];

export const testFailureFix = defineTask({
	id,
	title: 'Fix the bug that makes a node --test suite fail',
	prompt: [
		'The test suite of this small price library fails. Find the bug in the source and fix it.',
		`Run the tests with \`${testCommand}\`. Do not change the tests.`,
	].join('\n'),
	tools: ['node'],
	reference,
	grade: untouchedTestsPass(id, testFile, testNames),
});
