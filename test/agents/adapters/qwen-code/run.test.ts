import {access, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {qwenCodeAdapter as adapter} from '../../../../agents/adapters/qwen-code/index.js';
import type {QwenSpec} from '../../../../agents/adapters/qwen-code/spec.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {tempDir} from '../../../temp-dir.js';
import {exampleSpec, notStored, runAgent, scriptedProvider, storedPackage, taskFor} from '../agent-run.js';

checkNoLeaks(t);

const spec: QwenSpec = await exampleSpec('qwen-code');
const packageDir = await storedPackage(spec);
const prompt = 'Write hello.txt containing hi.';

t.test('the real Qwen Code, offline against the scripted provider, writes the file and finishes', {skip: notStored(spec, packageDir)}, async t => {
	const task = await taskFor(t, spec, {prompt, baseUrl: '', packageDir, systemPrompt: 'You are careful.'});
	// Its write_file takes absolute paths only.
	task.baseUrl = await scriptedProvider(t, {id: 'write_hello', prompt, turns: [
		{tool_calls: [{function: {name: 'write_file', arguments: {file_path: join(task.workspace, 'hello.txt'), content: 'hi\n'}}}]},
		{content: 'Wrote hello.txt.'},
	]});
	// A stand-in for systemd-inhibit first on its PATH, which notes each call: Qwen Code's sleep inhibitor would start
	// one for every model request (and probe it with --help first), asking the machine's logind over D-Bus.
	const bin = await tempDir(t, 'hlab-test-bin-');
	const called = join(bin, 'called');
	await writeFile(join(bin, 'systemd-inhibit'), `#!/bin/sh\necho "$*" >> '${called}'\nexit 1\n`, {mode: 0o755});
	const path = process.env.PATH;
	process.env.PATH = `${bin}:${path}`;
	t.teardown(() => void (process.env.PATH = path));
	const run = await runAgent(adapter, spec, task);
	t.equal(await readFile(join(task.workspace, 'hello.txt'), 'utf8'), 'hi\n');
	t.strictSame(run.classification, {status: 'finished'}, run.outputs.stderr);
	t.equal(run.collected.finalText, 'Wrote hello.txt.');
	t.equal(run.collected.usageClaim?.turns, 2, 'two requests: no background agent asked for more');
	t.equal(run.outputs.exitCode, 0);
	t.strictSame(run.leaks, [], 'no process of its own outlived it');
	t.equal(await access(called).then(() => readFile(called, 'utf8'), () => null), null, 'it never started systemd-inhibit');
	t.comment(`qwen-code: ${Math.round(run.wallMs)} ms`);
});
