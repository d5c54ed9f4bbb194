import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {codexAdapter as adapter} from '../../../../agents/adapters/codex/index.js';
import type {CodexSpec} from '../../../../agents/adapters/codex/spec.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {exampleSpec, notStored, runAgent, scriptedProvider, storedPackage, taskFor} from '../agent-run.js';

checkNoLeaks(t);

const spec: CodexSpec = await exampleSpec('codex');
const packageDir = await storedPackage(spec);

t.test('the real Codex, offline against the scripted provider\'s Responses API, runs a command that writes the file and finishes', {skip: notStored(spec, packageDir)}, async t => {
	const task = await taskFor(t, spec, {prompt: 'Write hello.txt containing hi.', baseUrl: '', packageDir});
	// Codex's first user message is its environment context, not the task: the script is found by the workspace it names.
	task.baseUrl = await scriptedProvider(t, {id: 'write_hello', prompt: `<cwd>${task.workspace}</cwd>`, turns: [
		{tool_calls: [{function: {name: 'exec_command', arguments: {cmd: 'printf \'hi\\n\' > hello.txt'}}}]},
		{content: 'Wrote hello.txt.'},
	]});
	const run = await runAgent(adapter, spec, task);
	t.equal(await readFile(join(task.workspace, 'hello.txt'), 'utf8'), 'hi\n');
	t.strictSame(run.classification, {status: 'finished'}, run.outputs.stderr.slice(-2000));
	t.equal(run.collected.finalText, 'Wrote hello.txt.');
	t.equal(run.outputs.exitCode, 0);
	t.strictSame(run.leaks, []);
	t.comment(`codex: ${Math.round(run.wallMs)} ms`);
});
