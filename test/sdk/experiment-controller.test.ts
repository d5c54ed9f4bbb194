import {PassThrough, Readable} from 'node:stream';
import t from 'tap';
import {ControllerError, dispatchExperimentController, type ExperimentController} from '../../sdk/index.js';

/** Runs the dispatcher on one request text and returns what it wrote and the status it exited with. */
async function dispatch(controller: ExperimentController, request: string) {
	const output = new PassThrough();
	const diagnostics = new PassThrough();
	const chunks: Buffer[] = [];
	const notes: Buffer[] = [];
	output.on('data', chunk => chunks.push(chunk));
	diagnostics.on('data', chunk => notes.push(chunk));
	let exited: number | null = null;
	const status = await dispatchExperimentController(controller, {input: Readable.from([Buffer.from(request)]), output, diagnostics, exit: code => { exited = code; }});
	const text = Buffer.concat(chunks).toString('utf8');
	return {status, exited, text, response: JSON.parse(text), stderr: Buffer.concat(notes).toString('utf8')};
}

const request = (method: string, params: unknown): string => JSON.stringify({version: 1, method, params});
const task = {id: 'greet', prompt: 'say hello'};

t.test('a valid request is answered with the method\'s result and status 0', async t => {
	const answer = await dispatch({tasks: async () => ({tasks: [task]})}, request('tasks', {}));
	t.same(answer.response, {version: 1, result: {tasks: [task]}});
	t.equal(answer.status, 0);
	t.equal(answer.exited, 0, 'the exit hook gets the status');
	t.ok(answer.text.endsWith('}\n') && answer.text.indexOf('\n') === answer.text.length - 1, 'exactly one JSON line');
});

t.test('each method gets its validated params', async t => {
	const seen: unknown[] = [];
	const controller: ExperimentController = {
		schedule: params => { seen.push(params); return {order: [...params.task_ids].reverse(), concurrency: 2}; },
		setup: params => { seen.push(params); return {}; },
		score: params => { seen.push(params); return {passed: true, score: 1, details: 'ok'}; },
		accept: params => { seen.push(params); return {decision: 'revise', reason: 'no change'}; },
	};
	t.same((await dispatch(controller, request('schedule', {task_ids: ['a', 'b']}))).response.result, {order: ['b', 'a'], concurrency: 2});
	t.same((await dispatch(controller, request('setup', {task, workspace: '/tmp/ws'}))).response.result, {});
	t.same((await dispatch(controller, request('score', {task, workspace: '/tmp/ws', messages: [{role: 'assistant'}], result: null}))).response.result, {passed: true, score: 1, details: 'ok'});
	const totals = {tasks: 0, passed: 0, failed: 0, turns: null, total_tokens: null, cost_usd: null, wall_ms: null};
	const summary = {plan_digest: 'p', tasks: [], totals};
	t.same((await dispatch(controller, request('accept', {baseline: summary, candidate: summary, policy: {concurrency: 1}}))).response.result, {decision: 'revise', reason: 'no change'});
	t.same(seen[0], {task_ids: ['a', 'b']});
	t.equal(seen.length, 4);
});

t.test('a method that is not implemented answers not_implemented and exits non-zero', async t => {
	const answer = await dispatch({}, request('accept', {baseline: {}, candidate: {}, policy: {}}));
	t.equal(answer.status, 1);
	t.match(answer.response, {version: 1, error: {code: 'invalid_request'}}, 'invalid params are judged before the method');
	const missing = await dispatch({}, request('tasks', {}));
	t.same(missing.response, {version: 1, error: {code: 'not_implemented', message: 'this controller does not implement tasks'}});
	t.equal(missing.exited, 1);
});

t.test('a method that throws answers failed, or the code of a ControllerError, and explains on stderr', async t => {
	const plain = await dispatch({tasks: () => { throw new Error('task source unreachable'); }}, request('tasks', {}));
	t.same(plain.response.error, {code: 'failed', message: 'tasks failed: task source unreachable'});
	t.equal(plain.status, 1);
	t.match(plain.stderr, /task source unreachable/);
	const coded = await dispatch({setup: async () => { throw new ControllerError('unknown_task', 'no such task'); }}, request('setup', {task, workspace: '/w'}));
	t.same(coded.response.error, {code: 'unknown_task', message: 'no such task'});
	const badCode = await dispatch({setup: async () => { throw new ControllerError('Unknown Task!', 'no such task'); }}, request('setup', {task, workspace: '/w'}));
	t.same(badCode.response.error, {code: 'failed', message: 'setup failed with code "Unknown Task!": no such task'}, 'a code outside the protocol\'s form is kept in the message');
});

t.test('a result that fails the protocol is an error response, never passed on', async t => {
	const bad = await dispatch({score: () => ({passed: true, score: 2, details: ''})}, request('score', {task, workspace: '/w', messages: [], result: null}));
	t.equal(bad.response.error.code, 'invalid_result');
	t.match(bad.response.error.message, /score/);
	const dropped = await dispatch({schedule: () => ({order: ['a'], concurrency: 1})}, request('schedule', {task_ids: ['a', 'b']}));
	t.same(dropped.response.error, {code: 'invalid_result', message: 'the schedule leaves out b'});
	t.equal(dropped.status, 1);
});

t.test('a request that is not protocol 1 JSON is refused', async t => {
	t.equal((await dispatch({}, 'not json')).response.error.code, 'invalid_request');
	t.equal((await dispatch({}, '[1]')).response.error.code, 'invalid_request', 'not an object');
	t.equal((await dispatch({}, JSON.stringify({method: 'tasks', params: {}}))).response.error.code, 'invalid_request', 'no version');
	t.equal((await dispatch({}, JSON.stringify({version: 2, method: 'tasks', params: {}}))).response.error.code, 'unsupported_version');
	t.equal((await dispatch({}, JSON.stringify({version: 1, method: 'grade', params: {}}))).response.error.code, 'invalid_request');
	t.equal((await dispatch({tasks: () => ({tasks: [task]})}, JSON.stringify({version: 1, method: 'tasks', params: {}}) + '{}')).response.error.code, 'invalid_request', 'a second value');
});
