import {readdir} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {createControllerClient} from '../../../supervisor/controller/index.js';
import {checkNoLeaks} from '../../leak-check.js';
import {answering, pinFixture, scratch} from './fixtures.js';

checkNoLeaks(t);

const validTasks = JSON.stringify({version: 1, result: {tasks: [{id: 'one', prompt: 'write one.txt'}]}});

t.test('a well-formed answer is the call\'s value', async t => {
	const client = createControllerClient({identity: await answering(await scratch(t), validTasks)});
	t.same(await client.call('tasks', {}), {ok: true, value: {tasks: [{id: 'one', prompt: 'write one.txt'}]}});
});

t.test('the request arrives on stdin as one JSON line of protocol 1', async t => {
	const client = createControllerClient({identity: await pinFixture('echo-request.mjs')});
	const answer = await client.call('tasks', {});
	t.ok(answer.ok);
	if (!answer.ok) return;
	t.equal(answer.value.tasks[0]?.prompt, '{"version":1,"method":"tasks","params":{}}\n');
});

t.test('each way an answer can be unusable has its own reason', async t => {
	const dir = await scratch(t);
	const cases: Array<{name: string; text: string | Buffer; status?: number; reason: string; message: RegExp}> = [
		{name: 'garbage', text: 'Sure! Here are your tasks.\n', reason: 'invalid_json', message: /not JSON/},
		{name: 'a truncated value', text: '{"version":1,"result":{"tasks":[', reason: 'invalid_json', message: /not JSON/},
		{name: 'a value followed by garbage', text: `${validTasks} and more`, reason: 'invalid_json', message: /not JSON/},
		{name: 'two JSON values', text: `${validTasks}\n${validTasks}\n`, reason: 'multiple_values', message: /2 JSON values/},
		{name: 'bytes that are not UTF-8', text: Buffer.from([0x22, 0xff, 0x22]), reason: 'invalid_json', message: /UTF-8/},
		{name: 'only whitespace', text: ' \n\t\n', reason: 'no_output', message: /nothing on stdout/},
		{name: 'a bare result without the envelope', text: JSON.stringify({tasks: [{id: 'one', prompt: 'p'}]}), reason: 'schema', message: /version/},
		{name: 'a task without a prompt', text: JSON.stringify({version: 1, result: {tasks: [{id: 'one'}]}}), reason: 'schema', message: /tasks\.0\.prompt/},
		{name: 'an unknown field', text: JSON.stringify({version: 1, result: {tasks: [{id: 'one', prompt: 'p'}], extra: true}}), reason: 'schema', message: /extra/},
		{name: 'a repeated task id', text: JSON.stringify({version: 1, result: {tasks: [{id: 'one', prompt: 'p'}, {id: 'one', prompt: 'q'}]}}), reason: 'schema', message: /one occurs more than once/},
		{name: 'a valid answer and then a non-zero exit', text: validTasks, status: 3, reason: 'exit_status', message: /exit status 3/},
		{name: 'nothing and a non-zero exit', text: '', status: 4, reason: 'exit_status', message: /exit status 4 and no output/},
		{name: 'an error response', text: JSON.stringify({version: 1, error: {code: 'no_source', message: 'the task file is gone'}}), status: 1, reason: 'error_response', message: /no_source: the task file is gone/},
	];
	for (const {name, text, status, reason, message} of cases) {
		const client = createControllerClient({identity: await answering(dir, text, status)});
		const answer = await client.call('tasks', {});
		t.equal(answer.ok ? 'ok' : answer.error.reason, reason, name);
		if (!answer.ok) t.match(answer.error.message, message, `${name}: the message says why`);
	}
});

t.test('an error response keeps the controller\'s code', async t => {
	const client = createControllerClient({identity: await answering(await scratch(t), JSON.stringify({version: 1, error: {code: 'not_implemented', message: 'no accept here'}}), 1)});
	const answer = await client.call('accept', {
		baseline: {plan_digest: 'p', tasks: [], totals: {tasks: 0, passed: 0, failed: 0, turns: null, total_tokens: null, cost_usd: null, wall_ms: null}},
		candidate: {plan_digest: 'p', tasks: [], totals: {tasks: 0, passed: 0, failed: 0, turns: null, total_tokens: null, cost_usd: null, wall_ms: null}},
		policy: {},
	});
	t.same(answer.ok ? null : {reason: answer.error.reason, code: answer.error.code}, {reason: 'error_response', code: 'not_implemented'});
});

t.test('params that fail the protocol schema are refused before anything runs', async t => {
	const dir = await scratch(t);
	const client = createControllerClient({identity: await answering(dir, validTasks), evidenceDir: dir});
	const answer = await client.call('setup', {task: {id: '../escape', prompt: 'p'}, workspace: 'relative/path'});
	t.equal(answer.ok ? 'ok' : answer.error.reason, 'invalid_request');
	if (!answer.ok) t.match(answer.error.message, /task\.id.*workspace|workspace.*task\.id/);
	const call = join(dir, 'controller', 'calls', '001-setup');
	t.same((await readdir(call)).sort(), ['error.json', 'request.json'], 'the refused request is recorded, and no process');
	const unknown = await client.call('grade' as 'tasks', {});
	t.equal(unknown.ok ? 'ok' : unknown.error.reason, 'invalid_request', 'a method outside the protocol');
});
