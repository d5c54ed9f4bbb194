import t from 'tap';
import {
	AcceptResult, ControllerIdentity, ControllerRequest, ControllerTask, ErrorResponse, ScheduleParams, ScheduleResult,
	ScoreResult, TasksResult, validateSchedule,
} from '../../controller-protocol/index.js';

const digest = `sha256:${'a'.repeat(64)}`;

t.test('a request names its method, carries version 1 and that method\'s params', async t => {
	t.ok(ControllerRequest.safeParse({version: 1, method: 'tasks', params: {}}).success);
	t.ok(ControllerRequest.safeParse({version: 1, method: 'schedule', params: {task_ids: ['a', 'b']}}).success);
	t.notOk(ControllerRequest.safeParse({version: 2, method: 'tasks', params: {}}).success, 'another version');
	t.notOk(ControllerRequest.safeParse({version: 1, method: 'grade', params: {}}).success, 'an unknown method');
	t.notOk(ControllerRequest.safeParse({version: 1, method: 'setup', params: {task_ids: ['a']}}).success, 'another method\'s params');
	t.notOk(ControllerRequest.safeParse({version: 1, method: 'setup', params: {task: {id: 'a', prompt: 'p'}, workspace: 'ws'}}).success, 'a relative workspace');
});

t.test('task ids are portable names and starting files stay inside the workspace', async t => {
	for (const id of ['a', 'task-1', 'x.y_z', 'A'.repeat(128)]) t.ok(ControllerTask.safeParse({id, prompt: 'p'}).success, id);
	for (const id of ['', '-a', '.hidden', 'a/b', 'a b', 'A'.repeat(129)]) t.notOk(ControllerTask.safeParse({id, prompt: 'p'}).success, JSON.stringify(id));
	for (const path of ['a.txt', 'dir/b.txt', '.config']) t.ok(ControllerTask.safeParse({id: 't', prompt: 'p', files: {[path]: ''}}).success, path);
	for (const path of ['/etc/passwd', '../up.txt', 'a/../../b', 'dir/', 'a//b', './a']) {
		t.notOk(ControllerTask.safeParse({id: 't', prompt: 'p', files: {[path]: ''}}).success, path);
	}
});

t.test('a task list is not empty and names each task once', async t => {
	t.notOk(TasksResult.safeParse({tasks: []}).success);
	t.notOk(TasksResult.safeParse({tasks: [{id: 'a', prompt: 'p'}, {id: 'a', prompt: 'q'}]}).success);
	t.notOk(ScheduleParams.safeParse({task_ids: ['a', 'a']}).success);
});

t.test('concurrency is an integer from 1 to 256', async t => {
	for (const concurrency of [1, 2, 256]) t.ok(ScheduleResult.safeParse({order: ['a'], concurrency}).success, String(concurrency));
	for (const concurrency of [0, 257, -1, 1.5]) t.notOk(ScheduleResult.safeParse({order: ['a'], concurrency}).success, String(concurrency));
});

t.test('validateSchedule requires every task exactly once', async t => {
	t.same(validateSchedule(['a', 'b', 'c'], {order: ['c', 'b', 'a'], concurrency: 3}), {ok: true});
	t.match(validateSchedule(['a', 'b', 'c'], {order: ['a', 'c'], concurrency: 1}), {ok: false, missing: ['b'], repeated: [], unknown: []});
	t.match(validateSchedule(['a', 'b'], {order: ['a', 'b', 'a'], concurrency: 1}), {ok: false, missing: [], repeated: ['a']});
	t.match(validateSchedule(['a'], {order: ['a', 'z'], concurrency: 1}), {ok: false, unknown: ['z']});
	t.match(validateSchedule(['a'], {order: ['a'], concurrency: 0}), {ok: false, concurrency: 0, message: /concurrency 0/});
	t.match(validateSchedule(['a'], {order: ['a'], concurrency: 257}), {ok: false, concurrency: 257});
});

t.test('a score is passed, an optional score in [0,1] and details', async t => {
	t.ok(ScoreResult.safeParse({passed: true, details: ''}).success);
	t.ok(ScoreResult.safeParse({passed: false, score: 0.5, details: 'half'}).success);
	t.notOk(ScoreResult.safeParse({passed: true, score: 1.01, details: ''}).success);
	t.notOk(ScoreResult.safeParse({passed: true}).success, 'details are required');
});

t.test('acceptance decides accept, reject or revise with a reason', async t => {
	for (const decision of ['accept', 'reject', 'revise']) t.ok(AcceptResult.safeParse({decision, reason: 'r'}).success, decision);
	t.notOk(AcceptResult.safeParse({decision: 'maybe', reason: 'r'}).success);
	t.notOk(AcceptResult.safeParse({decision: 'accept', reason: ''}).success, 'a reason is required');
});

t.test('an error response carries a snake_case code and a message', async t => {
	t.ok(ErrorResponse.safeParse({version: 1, error: {code: 'not_implemented', message: 'no'}}).success);
	t.notOk(ErrorResponse.safeParse({version: 1, error: {code: 'Not Implemented', message: 'no'}}).success);
	t.notOk(ErrorResponse.safeParse({error: {code: 'x', message: 'no'}}).success, 'the version is part of every message');
});

t.test('an identity pins every absolute path of its command', async t => {
	t.ok(ControllerIdentity.safeParse({command: ['/usr/bin/node', '/x/c.mjs', '--fast'], files: {'/usr/bin/node': digest, '/x/c.mjs': digest}}).success);
	t.notOk(ControllerIdentity.safeParse({command: ['node', '/x/c.mjs'], files: {'/x/c.mjs': digest}}).success, 'a relative executable');
	t.notOk(ControllerIdentity.safeParse({command: ['/usr/bin/node', '/x/c.mjs'], files: {'/usr/bin/node': digest}}).success, 'an unpinned script');
	t.notOk(ControllerIdentity.safeParse({command: ['/n'], files: {'/n': 'sha256:ABC'}}).success, 'a malformed digest');
	t.notOk(ControllerIdentity.safeParse({command: ['/n'], files: {'/n': digest, '/x/../y': digest}}).success, 'an unnormalized path');
});
