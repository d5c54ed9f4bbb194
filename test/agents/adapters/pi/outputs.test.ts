import t from 'tap';
import {piAdapter as adapter} from '../../../../agents/adapters/pi/index.js';
import {recordedOutputs} from '../agent-run.js';

// Recorded from pi 0.73.1: a run that called `write` then answered, one whose provider answered every request HTTP 500.

t.test('a finished run: its messages, tool call and result, final text and usage claim', async t => {
	const outputs = await recordedOutputs('pi-stdout-tool-run.jsonl');
	const collected = adapter.collect(outputs);
	t.strictSame(collected.messages.map(message => message.role), ['user', 'assistant', 'tool', 'assistant']);
	t.equal(collected.messages[0]!.content, 'Write hello.txt containing hi.');
	const call = collected.messages[1]!.tool_calls![0]!;
	t.equal(call.name, 'write');
	t.strictSame(JSON.parse(call.arguments), {path: 'hello.txt', content: 'hi\n'});
	t.equal(collected.messages[2]!.tool_call_id, call.id, 'the result answers the call');
	t.equal(collected.finalText, 'Wrote hello.txt.');
	t.equal(collected.usageClaim?.turns, 2);
	t.ok((collected.usageClaim?.input_tokens ?? 0) > 0, 'the prompt tokens pi was told');
	t.equal(collected.usageClaim?.total_tokens, collected.usageClaim!.input_tokens! + collected.usageClaim!.output_tokens!);
	t.equal(collected.usageClaim?.cost_usd, null, 'pi\'s cost is its own price table\'s: none');
	t.strictSame(adapter.classify(outputs, collected), {status: 'finished'});
});

t.test('pi exits 0 after its provider failed every retry: failed, reason provider, the error named', async t => {
	const outputs = await recordedOutputs('pi-stdout-provider-500.jsonl', 0);
	const collected = adapter.collect(outputs);
	t.equal(collected.finalText, null);
	t.equal(collected.usageClaim, null, 'no request was answered: no claim, not a claim of zero');
	t.match(adapter.classify(outputs, collected), {status: 'failed', reason: 'provider', message: /500 capture server: internal error/});
});

t.test('without its loop\'s end pi did not finish, whatever its exit code', async t => {
	const finished = await recordedOutputs('pi-stdout-tool-run.jsonl');
	const cut = {...finished, stdout: finished.stdout.split('\n').filter(line => !line.includes('"type":"agent_end"')).join('\n')};
	t.match(adapter.classify(cut, adapter.collect(cut)), {status: 'failed', reason: 'crash'});
	const silent = {...finished, stdout: '', stderr: 'Error: no model\n', exitCode: 1};
	t.match(adapter.classify(silent, adapter.collect(silent)), {status: 'failed', reason: 'init', message: /\(exit 1\): Error: no model/});
	const ended = {...finished, endedBySupervisor: true};
	t.match(adapter.classify(ended, adapter.collect(ended)), {status: 'failed', reason: 'unfinished'}, 'a run the supervisor ended is never finished');
});
