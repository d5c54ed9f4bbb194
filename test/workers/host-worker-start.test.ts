import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {modulesLoadedBy, packagesOf} from '../loaded-modules.js';

checkNoLeaks(t);

/** `hlab host-worker` given INPUT on stdin: its exit, its stderr and the packages it loaded, listed by a module hook on exit. */
async function hostWorkerGiven(input: string): Promise<{exitCode: number | null; stderr: string; packages: string[]}> {
	const run = await modulesLoadedBy(['host-worker'], input);
	return {exitCode: run.exitCode, stderr: run.stderr, packages: packagesOf(run.urls)};
}

t.test('a host worker parses its request with the engine loaded, but neither the OpenAI client nor the command line parser', async t => {
	const refused = await hostWorkerGiven('{}');
	t.equal(refused.exitCode, 2, 'a request that is not one is bad input');
	t.match(refused.stderr, /^hlab: not a host-worker v1 request: version: /);
	// zod parses the request; the client comes with the first model request, and the command takes no options to parse.
	t.same(refused.packages, ['zod']);
});

t.test('a request that is not JSON is refused the same way without the command line parser', async t => {
	const refused = await hostWorkerGiven('not json');
	t.equal(refused.exitCode, 2);
	t.match(refused.stderr, /^hlab: the request is not JSON: /);
});
