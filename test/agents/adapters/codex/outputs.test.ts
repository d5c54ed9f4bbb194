import t from 'tap';
import {codexAdapter as adapter} from '../../../../agents/adapters/codex/index.js';
import {recordedOutputs} from '../agent-run.js';

// Recorded from Codex 0.171.0: a run that ran a command then answered; one whose provider answered HTTP 500 (it
// reconnected five times, then failed the turn, exit 1); one whose second request was refused (HTTP 400).

t.test('a finished run: the command as a call and its result, final text, usage per turn', async t => {
	const outputs = await recordedOutputs('codex-stdout-tool-run.jsonl');
	const collected = adapter.collect(outputs);
	t.strictSame(collected.messages.map(message => message.role), ['assistant', 'tool', 'assistant']);
	const call = collected.messages[0]!.tool_calls![0]!;
	t.equal(call.name, 'exec_command');
	t.match(JSON.parse(call.arguments), {cmd: /printf 'hi.*' > hello\.txt/});
	t.equal(collected.messages[1]!.tool_call_id, call.id);
	t.equal(collected.finalText, 'Wrote hello.txt.');
	t.strictSame(collected.usageClaim, {turns: 1, input_tokens: 11627, output_tokens: 20, cache_read_tokens: 5762, cache_write_tokens: 0, total_tokens: 11647, cost_usd: null});
	t.strictSame(adapter.classify(outputs, collected), {status: 'finished'});
});

t.test('a failed turn is reason provider with the provider\'s own message', async t => {
	const refused = await recordedOutputs('codex-stdout-provider-400.jsonl', 1);
	t.match(adapter.classify(refused, adapter.collect(refused)), {status: 'failed', reason: 'provider', message: /^Codex's turn failed: script_exhausted/});
	const failing = await recordedOutputs('codex-stdout-provider-500.jsonl', 1);
	const collected = adapter.collect(failing);
	t.equal(collected.usageClaim, null);
	t.match(adapter.classify(failing, collected), {status: 'failed', reason: 'provider'});
	t.match(adapter.classify({...failing, exitCode: 0}, collected), {status: 'failed', reason: 'provider'}, 'whatever the exit code');
});

t.test('a run without its turn\'s end, or without a thread, is no finish', async t => {
	const finished = await recordedOutputs('codex-stdout-tool-run.jsonl');
	const cut = {...finished, stdout: finished.stdout.split('\n').filter(line => !line.includes('turn.completed')).join('\n')};
	t.match(adapter.classify(cut, adapter.collect(cut)), {status: 'failed', reason: 'crash'});
	const none = {...finished, stdout: '', exitCode: 1, stderr: 'Error: bad config\n'};
	t.match(adapter.classify(none, adapter.collect(none)), {status: 'failed', reason: 'init', message: /bad config/});
	t.match(adapter.classify({...finished, endedBySupervisor: true}, adapter.collect(finished)), {status: 'failed', reason: 'unfinished'});
});
