import t from 'tap';
import {createControllerClient} from '../../../supervisor/controller/index.js';
import {checkNoLeaks} from '../../leak-check.js';
import {answering, scratch} from './fixtures.js';

checkNoLeaks(t);

const taskIds = ['a', 'b', 'c'];
const schedule = (order: string[], concurrency: number): string => JSON.stringify({version: 1, result: {order, concurrency}});

t.test('a schedule that runs every task once at 1-256 is the call\'s value', async t => {
	const dir = await scratch(t);
	for (const concurrency of [1, 256]) {
		const client = createControllerClient({identity: await answering(dir, schedule(['c', 'a', 'b'], concurrency))});
		t.same(await client.call('schedule', {task_ids: taskIds}), {ok: true, value: {order: ['c', 'a', 'b'], concurrency}});
	}
});

t.test('a schedule that loses, repeats or invents a task, or whose concurrency is out of range, is refused', async t => {
	const dir = await scratch(t);
	const cases: Array<{name: string; text: string; reason: string; message: RegExp}> = [
		{name: 'drops a task', text: schedule(['a', 'c'], 2), reason: 'schedule', message: /leaves out b/},
		{name: 'repeats a task', text: schedule(['a', 'b', 'b', 'c'], 2), reason: 'schedule', message: /repeats b/},
		{name: 'names an unknown task', text: schedule(['a', 'b', 'c', 'd'], 2), reason: 'schedule', message: /unknown tasks d/},
		{name: 'concurrency 0', text: schedule(['a', 'b', 'c'], 0), reason: 'schema', message: /concurrency/},
		{name: 'concurrency 257', text: schedule(['a', 'b', 'c'], 257), reason: 'schema', message: /concurrency/},
		{name: 'fractional concurrency', text: schedule(['a', 'b', 'c'], 1.5), reason: 'schema', message: /concurrency/},
	];
	for (const {name, text, reason, message} of cases) {
		const client = createControllerClient({identity: await answering(dir, text)});
		const answer = await client.call('schedule', {task_ids: taskIds});
		t.equal(answer.ok ? 'ok' : answer.error.reason, reason, name);
		if (!answer.ok) t.match(answer.error.message, message, `${name}: the message says why`);
	}
});
