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
	task.baseUrl = await scriptedProvider(t, {id: 'write_hello', prompt, turns: [
		{tool_calls: [{function: {name: 'write', arguments: {filePath: join(task.workspace, 'hello.txt'), content: 'hi\n'}}}]},
		{content: 'Wrote hello.txt.'},
	]});
	const run = await runAgent(adapter, spec, task);
	t.equal(await readFile(join(task.workspace, 'hello.txt'), 'utf8'), 'hi\n');
	t.strictSame(run.classification, {status: 'finished'}, run.outputs.stderr.slice(-2000));
	t.equal(run.collected.finalText, 'Wrote hello.txt.');
	t.equal(run.collected.usageClaim?.turns, 2, 'its title request is not in its own claim');
	t.equal(run.outputs.exitCode, 0);
	// The plugin install runs in the background: on a loaded machine opencode can finish its task before the install
	// reports. Whatever it reported asked the closed loopback port, and no registry beyond it was named.
	const installs = run.outputs.stderr.split('\n').filter(line => line.includes('background dependency install'));
	for (const line of installs) t.match(line, /failed.*http:\/\/127\.0\.0\.1:9\//, 'its plugin install asked the closed loopback port');
	t.notMatch(run.outputs.stderr, /registry\.npmjs\.org|registry\.yarnpkg\.com/, 'no public registry is named');
	t.comment(`opencode: ${installs.length === 0 ? 'finished before its plugin install reported' : 'its plugin install failed on the closed port'}`);
	t.strictSame(run.leaks, []);
	t.comment(`opencode: ${Math.round(run.wallMs)} ms`);
});
