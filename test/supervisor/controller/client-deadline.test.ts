import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {createControllerClient} from '../../../supervisor/controller/index.js';
import {ProcessRecord} from '../../../process/index.js';
import {checkNoLeaks} from '../../leak-check.js';
import {pinFixture, scratch} from './fixtures.js';

checkNoLeaks(t);

t.test('a controller that sleeps past the deadline, with a child that ignores SIGTERM, fails with timeout and leaves nothing running', async t => {
	const dir = await scratch(t);
	const client = createControllerClient({identity: await pinFixture('sleep-ignoring-term.mjs'), evidenceDir: dir, deadlineMs: 2000, graceMs: 200});
	const started = performance.now();
	const answer = await client.call('tasks', {});
	t.equal(answer.ok ? 'ok' : answer.error.reason, 'timeout');
	if (!answer.ok) t.match(answer.error.message, /deadline of 2000 ms/);
	t.ok(performance.now() - started < 10_000, 'the call ends soon after its deadline');
	const record = ProcessRecord.parse(JSON.parse(await readFile(join(dir, 'controller', 'calls', '001-tasks', 'process.json'), 'utf8')));
	t.equal(record.timed_out, true);
	const stderr = await readFile(join(dir, 'controller', 'calls', '001-tasks', 'stderr.txt'), 'utf8');
	const child = Number(/child (\d+) ignores SIGTERM/.exec(stderr)?.[1]);
	t.ok(child > 0, 'the child was running and ignoring SIGTERM before the deadline (stderr is recorded)');
	t.match(stderr, /parent ignores SIGTERM/, 'the parent was sent SIGTERM first');
	t.same(record.killed.filter(killed => killed.how === 'kill').map(killed => killed.pid).sort(), [record.pid, child].sort(), 'both needed SIGKILL');
	t.same(record.survivors, []);
});

t.test('aborting the signal ends a running call with aborted', async t => {
	const controller = new AbortController();
	const client = createControllerClient({identity: await pinFixture('sleep-ignoring-term.mjs'), signal: controller.signal, graceMs: 200});
	setTimeout(() => controller.abort(), 500);
	const answer = await client.call('tasks', {});
	t.equal(answer.ok ? 'ok' : answer.error.reason, 'aborted');
	const after = await client.call('tasks', {});
	t.equal(after.ok ? 'ok' : after.error.reason, 'aborted', 'and refuses later calls');
});
