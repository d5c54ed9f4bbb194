import type {ReferenceScript} from '../reference/reference-script.js';
import {commandSucceeded, isToolError, testCommand} from '../reference/observe.js';

const source = 'src/discount.js';
const defect = 'Math.round(cents * percent / 100)';
const repair = 'Math.round(cents * (100 - percent) / 100)';

/** Looks around, reproduces the failure, repairs the formula it reads, then runs the passing suite twice. */
export const reference: ReferenceScript = function* () {
	yield {tool: 'list_files', args: {path: '.'}, note: 'Let me look at the project first.'};
	const before = yield {tool: 'run_command', args: {command: testCommand}};
	if (commandSucceeded(before)) return 'The tests already pass; nothing to fix.';
	const code = yield {tool: 'read_file', args: {path: source}};
	yield {tool: 'read_file', args: {path: 'test/discount.test.js'}};
	if (isToolError(code) || !code.includes(defect)) return `I could not find the defect in ${source}.`;
	yield {tool: 'write_file', args: {path: source, content: code.replace(defect, repair)}, note: 'applyDiscount returns the discount instead of the discounted price; fixing the formula.'};
	const after = yield {tool: 'run_command', args: {command: testCommand}};
	if (!commandSucceeded(after)) return 'The tests still fail after the fix.';
	// Not needed: the suite just passed. It is here so that a candidate has something real to save.
	yield {tool: 'run_command', args: {command: testCommand}, note: 'Running the suite once more to be sure.'};
	return 'Fixed applyDiscount in src/discount.js: it returned the discount amount instead of the discounted price. All tests pass.';
};
