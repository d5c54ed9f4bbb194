import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {opencodeAdapter as adapter} from '../../../../agents/adapters/opencode/index.js';
import type {OpencodeSpec} from '../../../../agents/adapters/opencode/spec.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {exampleSpec, notStored, runAgent, scriptedProvider, storedPackage, taskFor} from '../agent-run.js';

checkNoLeaks(t);

const spec: OpencodeSpec = await exampleSpec('opencode');
const packageDir = await storedPackage(spec);
const prompt = 'Write hello.txt containing hi.';

t.test('the real opencode, offline against the scripted provider, writes the file and finishes', {skip: notStored(spec, packageDir)}, async t => {
	const task = await taskFor(t, spec, {prompt, baseUrl: '', packageDir, systemPrompt: 'You are careful.'});
	// opencode starts a plugin install in the background, which on a loaded machine can report after the task is done:
	// the first turn waits in opencode's own log for its outcome, so that the check below always has one to read.
	const installed = `${task.home}/.local/share/opencode/log/opencode.log`;
	// (`[y]`: opencode logs this command too, and the pattern must not find that line.)
	const waitForInstall = `for i in $(seq 600); do grep -q 'message="background dependenc[y] install' '${installed}' && exit 0; sleep 0.1; done; exit 1`;
	task.baseUrl = await scriptedProvider(t, {id: 'write_hello', prompt, turns: [
		{tool_calls: [{function: {name: 'bash', arguments: {command: waitForInstall, description: 'Wait for the plugin install'}}}]},
		{tool_calls: [{function: {name: 'write', arguments: {filePath: join(task.workspace, 'hello.txt'), content: 'hi\n'}}}]},
		{content: 'Wrote hello.txt.'},
	]});
	const run = await runAgent(adapter, spec, task);
	t.equal(await readFile(join(task.workspace, 'hello.txt'), 'utf8'), 'hi\n');
	t.strictSame(run.classification, {status: 'finished'}, run.outputs.stderr.slice(-2000));
	t.equal(run.collected.finalText, 'Wrote hello.txt.');
	t.equal(run.collected.usageClaim?.turns, 3, 'its title request is not in its own claim');
	t.equal(run.outputs.exitCode, 0);
	const installs = run.outputs.stderr.split('\n').filter(line => line.includes('message="background dependency install'));
	t.equal(installs.length, 1, 'its plugin install reported once');
	t.match(installs[0], /failed.*http:\/\/127\.0\.0\.1:9\//, 'its plugin install asked the closed loopback port and failed');
	t.notMatch(run.outputs.stderr, /registry\.npmjs\.org|registry\.yarnpkg\.com/, 'no public registry is named');
	t.strictSame(run.leaks, []);
	t.comment(`opencode: ${Math.round(run.wallMs)} ms`);
});
