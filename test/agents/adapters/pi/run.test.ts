import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {piAdapter as adapter} from '../../../../agents/adapters/pi/index.js';
import type {PiSpec} from '../../../../agents/adapters/pi/spec.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {exampleSpec, notStored, runAgent, scriptedProvider, storedPackage, taskFor} from '../agent-run.js';

checkNoLeaks(t);

const spec: PiSpec = await exampleSpec('pi');
const packageDir = await storedPackage(spec);
const prompt = 'Write hello.txt containing hi.';

t.test('the real pi, offline against the scripted provider, writes the file and finishes', {skip: notStored(spec, packageDir)}, async t => {
	const baseUrl = await scriptedProvider(t, {id: 'write_hello', prompt, turns: [
		{tool_calls: [{function: {name: 'write', arguments: {path: 'hello.txt', content: 'hi\n'}}}]},
		{content: 'Wrote hello.txt.'},
	]});
	const task = await taskFor(t, spec, {prompt, baseUrl, packageDir, systemPrompt: 'You are careful.'});
	const run = await runAgent(adapter, spec, task);
	t.equal(await readFile(join(task.workspace, 'hello.txt'), 'utf8'), 'hi\n');
	t.strictSame(run.classification, {status: 'finished'}, run.outputs.stderr);
	t.equal(run.collected.finalText, 'Wrote hello.txt.');
	t.equal(run.collected.usageClaim?.turns, 2);
	t.equal(run.outputs.exitCode, 0);
	t.strictSame(run.leaks, [], 'pi leaves no process behind');
	t.comment(`pi: ${Math.round(run.wallMs)} ms`);
});
