import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {checkSpec} from '../../../../agents/index.js';
import {qwenCodeAdapter as adapter} from '../../../../agents/adapters/qwen-code/index.js';
import type {QwenSpec} from '../../../../agents/adapters/qwen-code/spec.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {runAgent, scriptedProvider, storedPackage, taskFor} from '../agent-run.js';

checkNoLeaks(t);

const checked = checkSpec(JSON.parse(await readFile(join(import.meta.dirname, '../../../../../examples/agents/qwen-code.json'), 'utf8')));
if (typeof checked === 'string' || checked.adapter !== 'qwen-code') throw new Error(String(checked));
const spec: QwenSpec = checked;
const packageDir = await storedPackage(spec);
const prompt = 'Write hello.txt containing hi.';

t.test('the real Qwen Code, offline against the scripted provider, writes the file and finishes', {skip: packageDir === null ? `${spec.package.name}@${spec.package.version} is not in the store (scripts/install-agents.sh)` : false}, async t => {
	const task = await taskFor(t, spec, {prompt, baseUrl: '', packageDir, systemPrompt: 'You are careful.'});
	// Its write_file takes absolute paths only.
	task.baseUrl = await scriptedProvider(t, {id: 'write_hello', prompt, turns: [
		{tool_calls: [{function: {name: 'write_file', arguments: {file_path: join(task.workspace, 'hello.txt'), content: 'hi\n'}}}]},
		{content: 'Wrote hello.txt.'},
	]});
	const run = await runAgent(adapter, spec, task);
	t.equal(await readFile(join(task.workspace, 'hello.txt'), 'utf8'), 'hi\n');
	t.strictSame(run.classification, {status: 'finished'}, run.outputs.stderr);
	t.equal(run.collected.finalText, 'Wrote hello.txt.');
	t.equal(run.collected.usageClaim?.turns, 2, 'two requests: no background agent asked for more');
	t.equal(run.outputs.exitCode, 0);
	t.strictSame(run.leaks, [], 'no process of its own outlived it');
	t.comment(`qwen-code: ${Math.round(run.wallMs)} ms`);
});
