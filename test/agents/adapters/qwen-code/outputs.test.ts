import t from 'tap';
import {qwenCodeAdapter as adapter} from '../../../../agents/adapters/qwen-code/index.js';
import {recordedOutputs} from '../agent-run.js';

// Recorded from Qwen Code 0.24.4: a run that called write_file then answered; one whose provider answered HTTP 500
// (it retried for a minute, then wrote an error result and exited 1); one its own --max-wall-time aborted (exit 55, no result);
// one its loop guard halted (the scripted background_job_poll polls with one identical call).

t.test('a finished run: the tool call and its result, final text and usage claim', async t => {
	const outputs = await recordedOutputs('qwen-code-stdout-tool-run.jsonl');
	const collected = adapter.collect(outputs);
	t.strictSame(collected.messages.map(message => message.role), ['assistant', 'tool', 'assistant']);
	const call = collected.messages[0]!.tool_calls![0]!;
	t.equal(call.name, 'write_file');
	t.match(JSON.parse(call.arguments), {file_path: /\/hello\.txt$/, content: 'hi\n'});
	t.equal(collected.messages[1]!.tool_call_id, call.id);
	t.match(collected.messages[1]!.content, /Successfully created/);
	t.equal(collected.finalText, 'Wrote hello.txt.');
	t.match(collected.usageClaim, {turns: 2, cache_write_tokens: null, cost_usd: null});
	t.ok((collected.usageClaim?.cache_read_tokens ?? 0) > 0, 'the cached part of the second prompt');
	t.strictSame(adapter.classify(outputs, collected), {status: 'finished'});
});

t.test('a provider failure is reason provider, its API error named; it answered no turn', async t => {
	const outputs = await recordedOutputs('qwen-code-stdout-provider-500.jsonl', 1);
	const collected = adapter.collect(outputs);
	t.equal(collected.usageClaim, null);
	t.equal(collected.finalText, null);
	t.match(adapter.classify(outputs, collected), {status: 'failed', reason: 'provider', message: /API Error: 500 capture server/});
});

t.test('its own wall-time budget ends it without a result: unfinished; no result otherwise is a crash', async t => {
	const outputs = {...await recordedOutputs('qwen-code-stdout-wall-time.jsonl', 55), stderr: 'Run aborted: wall-clock budget of 15s exceeded (--max-wall-time).\n'};
	t.match(adapter.classify(outputs, adapter.collect(outputs)), {status: 'failed', reason: 'unfinished', message: /wall-clock budget/});
	const crashed = {...outputs, exitCode: 0};
	t.match(adapter.classify(crashed, adapter.collect(crashed)), {status: 'failed', reason: 'crash'}, 'exit 0 without a result is no finish');
	const finished = await recordedOutputs('qwen-code-stdout-tool-run.jsonl');
	t.match(adapter.classify({...finished, endedBySupervisor: true}, adapter.collect(finished)), {status: 'failed', reason: 'unfinished'});
	t.match(adapter.classify({...finished, stdout: ''}, adapter.collect(finished)), {status: 'failed', reason: 'init'});
});

t.test('its loop guard halting the run is unfinished, not a crash', async t => {
	const outputs = await recordedOutputs('qwen-code-stdout-loop-halt.jsonl', 1);
	const collected = adapter.collect(outputs);
	t.match(adapter.classify(outputs, collected), {status: 'failed', reason: 'unfinished', message: /Loop detection halted the run \(consecutive_identical_tool_calls/});
	t.ok(collected.messages.filter(message => message.role === 'tool').length >= 3, 'the calls it made are kept');
});

t.test('a response whose text it streamed apart from its call is one message and one turn', async t => {
	// Recorded through hlab eval on the scripted test_failure_fix, whose reference notes a text before some calls: 8 requests.
	const outputs = await recordedOutputs('qwen-code-stdout-split-response.jsonl');
	const collected = adapter.collect(outputs);
	t.equal(collected.usageClaim?.turns, 8, 'as many turns as the proxy counted requests');
	const assistants = collected.messages.filter(message => message.role === 'assistant');
	t.equal(assistants.length, 8);
	t.ok(assistants.some(message => message.content !== null && message.tool_calls !== undefined), 'a text and its call in one message');
	t.strictSame(adapter.classify(outputs, collected), {status: 'finished'});
});
