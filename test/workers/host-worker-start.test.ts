import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

const hlab = join(installRoot, 'bin', 'hlab.js');

/** `hlab host-worker` given INPUT on stdin: its exit, its stderr and the packages it loaded, listed by a module hook on exit. */
async function hostWorkerGiven(input: string): Promise<{exitCode: number | null; stderr: string; packages: string[]}> {
	const hook = 'import {registerHooks} from "node:module"; const seen = []; registerHooks({load(url, context, next) { seen.push(url); return next(url, context); }}); process.on("exit", () => process.stderr.write("MODULES " + JSON.stringify(seen) + "\\n"));';
	const run = await runInGroup({argv: [process.execPath, '--import', `data:text/javascript,${encodeURIComponent(hook)}`, hlab, 'host-worker'], input, deadlineMs: 60_000});
	const lines = run.stderr!.toString().split('\n');
	const list = lines.find(text => text.startsWith('MODULES '));
	if (list === undefined) throw new Error(`no module list: ${run.stderr!.toString()}`);
	const urls = JSON.parse(list.slice('MODULES '.length)) as string[];
	const packages = new Set(urls.flatMap(url => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
	return {exitCode: run.record.exit_code, stderr: lines.filter(text => !text.startsWith('MODULES ')).join('\n'), packages: [...packages].sort()};
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
