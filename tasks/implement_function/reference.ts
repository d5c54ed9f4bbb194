import type {ReferenceScript} from '../reference/reference-script.js';
import {commandSucceeded, isToolError, testCommand} from '../reference/observe.js';

const stub = "throw new Error('slugify is not implemented yet');";
const body = [
	"const slug = title.normalize('NFKD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');",
	'\tif (slug.length <= maxLength) return slug;',
	'\tconst cut = slug.slice(0, maxLength);',
	"\tconst hyphen = slug[maxLength] === '-' ? maxLength : cut.lastIndexOf('-');",
	"\treturn (hyphen > 0 ? cut.slice(0, hyphen) : cut).replace(/-+$/, '');",
].join('\n');

/** Reads the specification and the tests, replaces the stub, then runs the passing suite twice. */
export const reference: ReferenceScript = function* () {
	yield {tool: 'list_files', args: {path: '.'}};
	const source = yield {tool: 'read_file', args: {path: 'src/slugify.js'}};
	yield {tool: 'read_file', args: {path: 'test/slugify.test.js'}};
	if (isToolError(source) || !source.includes(stub)) return 'src/slugify.js does not hold the expected stub.';
	yield {tool: 'write_file', args: {path: 'src/slugify.js', content: source.replace(stub, body)}, note: 'Implementing slugify as documented.'};
	const first = yield {tool: 'run_command', args: {command: testCommand}};
	if (!commandSucceeded(first)) return 'The tests fail with my implementation.';
	// Not needed: the suite just passed. It is here so that a candidate has something real to save.
	yield {tool: 'run_command', args: {command: testCommand}, note: 'Running the suite once more.'};
	return 'Implemented slugify in src/slugify.js; all tests pass.';
};
