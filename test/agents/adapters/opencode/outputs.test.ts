import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {opencodeAdapter as adapter} from '../../../../agents/adapters/opencode/index.js';
import {recordedOutputs} from '../agent-run.js';
import {tempDir} from '../../../temp-dir.js';

// Recorded from opencode 1.18.33: a run that called write then answered; one whose second request the provider
// refused (HTTP 400, not retried: an error event, exit 1); the log of one whose provider answered HTTP 500 (retried
// until it was ended, nothing on stdout).

t.test('a finished run: each step an assistant message, the tool result after it, final text and usage claim', async t => {
	const outputs = await recordedOutputs('opencode-stdout-tool-run.jsonl');
	const collected = adapter.collect(outputs);
	t.strictSame(collected.messages.map(message => message.role), ['assistant', 'tool', 'assistant']);
	const call = collected.messages[0]!.tool_calls![0]!;
	t.equal(call.name, 'write');
	t.match(JSON.parse(call.arguments), {filePath: /\/hello\.txt$/, content: 'hi\n'});
	t.strictSame(collected.messages[1], {role: 'tool', content: 'Wrote file successfully.', tool_call_id: call.id});
	t.equal(collected.finalText, 'Wrote hello.txt.');
	t.equal(collected.usageClaim?.turns, 2);
	t.equal(collected.usageClaim?.cache_read_tokens, 6994);
	t.equal(collected.usageClaim?.input_tokens, 6994 + 86 + 6994, 'the prompt counted whole: opencode reports it without the cached part');
	t.strictSame(adapter.classify(outputs, collected), {status: 'finished'});
});

t.test('a refused request is reason provider, the provider\'s message named, whatever the exit code', async t => {
	for (const exitCode of [1, 0]) {
		const outputs = await recordedOutputs('opencode-stdout-provider-400.jsonl', exitCode);
		t.match(adapter.classify(outputs, adapter.collect(outputs)), {status: 'failed', reason: 'provider', message: /APIError.*script_exhausted/});
	}
});

t.test('a provider it retried until the supervisor ended it: reason provider, from its log', async t => {
	const home = await tempDir(t, 'hlab-opencode-home-');
	await mkdir(join(home, '.local/share/opencode/log'), {recursive: true});
	await writeFile(join(home, '.local/share/opencode/log/opencode.log'), await readFile(join(import.meta.dirname, '../../../../../test/fixtures/agents/opencode-log-provider-500.txt')));
	const outputs = {stdout: '', stderr: '', exitCode: null, signal: 'SIGKILL', home, endedBySupervisor: true};
	t.match(adapter.classify(outputs, adapter.collect(outputs)), {status: 'failed', reason: 'provider', message: /still retrying.*capture server: internal error/});
	const quiet = {...outputs, home: await tempDir(t, 'hlab-opencode-home-')};
	t.match(adapter.classify(quiet, adapter.collect(quiet)), {status: 'failed', reason: 'unfinished'}, 'without such a log: only unfinished');
});

t.test('a run cut in the middle of a step, or with no step, is no finish', async t => {
	const finished = await recordedOutputs('opencode-stdout-tool-run.jsonl');
	const cut = {...finished, stdout: finished.stdout.split('\n').slice(0, 3).join('\n')};
	t.match(adapter.classify(cut, adapter.collect(cut)), {status: 'failed', reason: 'crash'});
	const none = {...finished, stdout: '', exitCode: 1, stderr: 'Error: unknown model\n'};
	t.match(adapter.classify(none, adapter.collect(none)), {status: 'failed', reason: 'init', message: /Error: unknown model/});
});
