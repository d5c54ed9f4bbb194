import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {encode, loadTokenizer} from '../../../scripted/tokenizer.js';
import {startMeteringProxy} from '../../../supervisor/host/metering-proxy.js';
import {MeteringRecord} from '../../../supervisor/host/metering-record.js';
import {writeMeteringRecord} from '../../../supervisor/host/index.js';
import {startStreamingUpstream, streamedText, streamedUsage, type StreamingUpstream} from './streaming-upstream.js';

checkNoLeaks(t);

const model = 'plan-model';
const messages = [{role: 'user', content: 'Say hello to the world'}];
const chat = (extra: object = {}) => JSON.stringify({model, messages, stream: true, stream_options: {include_usage: true}, ...extra});
const responses = (extra: object = {}) => JSON.stringify({model, input: 'Say hello to the world', instructions: 'Be brief.', stream: true, ...extra});

async function setUp(t: Test): Promise<{stub: StreamingUpstream; proxy: Awaited<ReturnType<typeof startMeteringProxy>>}> {
	const stub = await startStreamingUpstream();
	const proxy = await startMeteringProxy({base_url: stub.url, model, api_key_env: null, reasoning_effort: null}, 'key');
	t.teardown(async () => {
		await proxy.close();
		await stub.close();
	});
	return {stub, proxy};
}

const post = (url: string, body: string) => fetch(url, {method: 'POST', headers: {'content-type': 'application/json'}, body});

t.test('a stream is relayed as it arrives: the first event reaches the agent long before the provider ends it', async t => {
	const {stub, proxy} = await setUp(t);
	const answer = await post(`${proxy.provider.base_url}/chat/completions?delay=150`, chat());
	const reader = answer.body!.getReader();
	const first = await reader.read();
	const firstMs = performance.now();
	const decoder = new TextDecoder();
	let text = decoder.decode(first.value, {stream: true});
	for (let next = await reader.read(); !next.done; next = await reader.read()) text += decoder.decode(next.value, {stream: true});
	t.ok(stub.lastSentMs() > 0, 'the stub finished its stream');
	// Six gaps of 150 ms: a proxy that collected the body would deliver its first byte after the last chunk.
	t.ok(stub.lastSentMs() - firstMs > 500, `the first byte arrived ${Math.round(stub.lastSentMs() - firstMs)} ms before the last chunk was sent`);
	t.match(text, /"choices":\[\],"usage":\{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17\}/, 'the final usage chunk is relayed intact');
	t.match(text, /data: \[DONE\]\n\n$/);
	t.same(proxy.usage(), {turns: 1, input_tokens: 12, output_tokens: 5, cache_read_tokens: null, cache_write_tokens: null, total_tokens: 17, cost_usd: null, token_source: 'provider'}, 'the counted usage is the stream\'s usage chunk');
});

t.test('the Responses API is forwarded and counted from response.completed', async t => {
	const {stub, proxy} = await setUp(t);
	const answer = await post(`${proxy.provider.base_url}/responses?delay=5`, responses());
	t.equal(answer.status, 200);
	const text = await answer.text();
	t.match(text, /event: response\.completed\ndata: /, 'the events pass through with their names');
	t.same(stub.requests, ['/v1/responses?delay=5']);
	t.same(proxy.usage(), {turns: 1, input_tokens: 20, output_tokens: 6, cache_read_tokens: 2, cache_write_tokens: null, total_tokens: 26, cost_usd: null, token_source: 'provider'});
	t.equal(proxy.requests(), 1);
});

t.test('a stream without usage is counted with the tokenizer and marked estimated, never as measured', async t => {
	const {proxy} = await setUp(t);
	await (await post(`${proxy.provider.base_url}/chat/completions?usage=0`, chat({stream_options: undefined}))).text();
	await (await post(`${proxy.provider.base_url}/responses?usage=0`, responses())).text();
	await proxy.close();
	await loadTokenizer();
	const tokens = (texts: string[]) => texts.reduce((sum, text) => sum + encode(text).length, 0);
	const output = tokens(streamedText);
	const chatPrompt = tokens(['Say hello to the world']);
	const responsesPrompt = tokens(['Say hello to the world', 'Be brief.']);
	const usage = proxy.usage();
	t.equal(usage.token_source, 'estimated');
	t.equal(usage.turns, 2);
	t.equal(usage.input_tokens, chatPrompt + responsesPrompt, 'the prompts as the tokenizer counts them');
	t.equal(usage.output_tokens, 2 * output, 'the streamed text as the tokenizer counts it');
	t.ok(output > 0 && chatPrompt > 0);
	t.equal(usage.cache_read_tokens, null, 'what the estimate cannot know stays unknown');
});

t.test('one estimated turn marks the whole figure estimated', async t => {
	const {proxy} = await setUp(t);
	await (await post(`${proxy.provider.base_url}/chat/completions`, chat())).text();
	t.equal(proxy.usage().token_source, 'provider');
	await (await post(`${proxy.provider.base_url}/chat/completions?usage=0`, chat())).text();
	await proxy.close();
	t.equal(proxy.usage().token_source, 'estimated');
	t.equal(proxy.usage().turns, 2);
});

t.test('a request for another model is refused with an OpenAI-style error, never forwarded, and recorded', async t => {
	const {stub, proxy} = await setUp(t);
	const cases: Array<[string, string]> = [
		['/chat/completions', chat({model: 'gpt-5-expensive'})],
		['/responses', responses({model: 'o3-pro'})],
		['/chat/completions', JSON.stringify({messages, stream: true})],
		// Any endpoint that names a model, metered or not: an unmetered one would spend off the books.
		['/completions', JSON.stringify({model: 'gpt-5-expensive', prompt: 'hi'})],
	];
	for (const [path, body] of cases) {
		const answer = await post(`${proxy.provider.base_url}${path}`, body);
		t.equal(answer.status, 400, `${path} refused`);
		const error = (await answer.json()) as {error: {message: string; type: string; code: string}};
		t.equal(error.error.type, 'invalid_request_error');
		t.equal(error.error.code, 'model_not_allowed');
		t.match(error.error.message, /plan-model/, 'the agent is told which model it may use');
	}
	t.same(stub.requests, [], 'nothing reached the provider');
	t.same(proxy.refusals(), {count: 4, models: ['gpt-5-expensive', 'o3-pro', null], malformed: 0});
	t.equal(proxy.usage().turns, 0);
	t.equal(proxy.requests(), 0);
	const dir = await tempDir(t, 'hlab-metering-record-');
	const evidence = await writeMeteringRecord({dir, relDir: 'tasks/001-a'}, {usage: proxy.usage(), requests: proxy.requests(), refusals: proxy.refusals()});
	t.same(evidence, {metering: 'tasks/001-a/metering.json'});
	const record = MeteringRecord.parse(JSON.parse(await readFile(join(dir, 'metering.json'), 'utf8')));
	t.same(record.refusals.models, ['gpt-5-expensive', 'o3-pro', null], 'the evidence names the models asked for');
});

t.test('a malformed request is answered 4xx by the proxy and the proxy keeps serving', async t => {
	const {stub, proxy} = await setUp(t);
	const cases: Array<[string, string, string]> = [
		['/chat/completions', 'not json {', 'invalid_json'],
		['/chat/completions', '[1, 2]', 'invalid_json'],
		['/chat/completions', JSON.stringify({model}), 'missing_messages'],
		['/responses', JSON.stringify({model, stream: true}), 'missing_input'],
	];
	for (const [path, body, code] of cases) {
		const answer = await post(`${proxy.provider.base_url}${path}`, body);
		t.equal(answer.status, 400, `${code}: a 400`);
		t.equal(((await answer.json()) as {error: {code: string}}).error.code, code);
	}
	t.same(stub.requests, []);
	t.same(proxy.refusals(), {count: 0, models: [], malformed: 4});
	const fine = await post(`${proxy.provider.base_url}/chat/completions`, chat());
	t.equal(fine.status, 200, 'a good request after them is served');
	await fine.text();
	t.equal(proxy.usage().turns, 1);
	t.equal(proxy.usage().total_tokens, streamedUsage.total_tokens);
});
