import t from 'tap';
import {createControllerClient} from '../../../supervisor/controller/index.js';
import {checkNoLeaks} from '../../leak-check.js';
import {pinFixture} from './fixtures.js';

checkNoLeaks(t);

t.test('a controller that exits without a word fails with no_output', async t => {
	const client = createControllerClient({identity: await pinFixture('silent.mjs')});
	const answer = await client.call('tasks', {});
	t.equal(answer.ok ? 'ok' : answer.error.reason, 'no_output');
});

t.test('a 9 MiB answer overflows the 8 MiB stdout limit', async t => {
	const client = createControllerClient({identity: await pinFixture('flood-stdout.mjs', [String(9 * 1024 * 1024)])});
	const answer = await client.call('tasks', {});
	t.equal(answer.ok ? 'ok' : answer.error.reason, 'stdout_limit');
	if (!answer.ok) t.match(answer.error.message, /8388608 bytes/);
});

t.test('an answer just under the limit is accepted', async t => {
	const client = createControllerClient({identity: await pinFixture('flood-stdout.mjs', [String(8 * 1024 * 1024 - 1)])});
	const answer = await client.call('tasks', {});
	t.ok(answer.ok, answer.ok ? 'accepted' : answer.error.message);
	if (answer.ok) t.ok((answer.value.tasks[0]?.prompt.length ?? 0) > 8_000_000, 'with the whole prompt');
});

t.test('300 KiB of diagnostics overflow the 256 KiB stderr limit, even before a valid answer', async t => {
	const client = createControllerClient({identity: await pinFixture('flood-stderr.mjs', [String(300 * 1024)])});
	const answer = await client.call('tasks', {});
	t.equal(answer.ok ? 'ok' : answer.error.reason, 'stderr_limit');
});
