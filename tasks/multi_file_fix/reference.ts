import type {ReferenceScript} from '../reference/reference-script.js';
import {commandSucceeded, isToolError, testCommand} from '../reference/observe.js';

const parseDefect = 'quantity: Number.parseInt(parts[2], 10)';
const parseRepair = 'quantity: Number.parseInt(parts[1], 10)';
const totalDefect = 'sum + line.quantity * line.unitPrice)';
const totalRepair = 'sum + line.quantity * line.unitPrice, 0)';

/**
 * Reads the report and its modules, fixes the parser, sees the suite still fail, fixes the total,
 * then lists the files twice before finishing.
 */
export const reference: ReferenceScript = function* () {
	yield {tool: 'list_files', args: {path: '.'}};
	const first = yield {tool: 'run_command', args: {command: testCommand}};
	if (commandSucceeded(first)) return 'The tests already pass; nothing to fix.';
	yield {tool: 'read_file', args: {path: 'src/report.js'}, note: 'The report combines three modules; reading them.'};
	const parse = yield {tool: 'read_file', args: {path: 'src/parse.js'}};
	const total = yield {tool: 'read_file', args: {path: 'src/total.js'}};
	if (isToolError(parse) || !parse.includes(parseDefect)) return 'I could not find the parsing defect.';
	yield {tool: 'write_file', args: {path: 'src/parse.js', content: parse.replace(parseDefect, parseRepair)}, note: 'The quantity is read from the price column.'};
	const second = yield {tool: 'run_command', args: {command: testCommand}};
	if (!commandSucceeded(second)) {
		if (isToolError(total) || !total.includes(totalDefect)) return 'The tests still fail and I could not find the second defect.';
		yield {tool: 'write_file', args: {path: 'src/total.js', content: total.replace(totalDefect, totalRepair)}, note: 'The total reduces without an initial value.'};
		const third = yield {tool: 'run_command', args: {command: testCommand}};
		if (!commandSucceeded(third)) return 'The tests still fail after both fixes.';
	}
	// Two identical listings in a row: redundant on purpose, so a candidate has something real to save.
	yield {tool: 'list_files', args: {path: 'src'}, note: 'Checking which files changed.'};
	yield {tool: 'list_files', args: {path: 'src'}};
	return 'Fixed two defects: src/parse.js read the quantity from the price column, and src/total.js reduced without an initial value. All tests pass.';
};
