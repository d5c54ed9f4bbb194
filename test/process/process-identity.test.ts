import t from 'tap';
import {spawn} from 'node:child_process';
import {setTimeout as sleep} from 'node:timers/promises';
import {isStillRunning, signalIdentity} from '../../process/process-identity.js';
import {readStat} from '../../process/proc-table.js';
import {once} from 'node:events';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

t.test('a pid whose start time differs is not signalled (pid reuse)', async t => {
	// A real child of the test, so the test can reap it itself.
	const child = spawn('sleep', ['300']);
	t.teardown(() => child.kill('SIGKILL'));
	await sleep(50);
	const stat = readStat(child.pid!)!;
	const impostor = {pid: stat.pid, startTime: stat.startTime - 1, comm: stat.comm};
	t.notOk(isStillRunning(impostor));
	t.notOk(signalIdentity(impostor, 'SIGKILL'), 'the signal is refused');
	t.ok(isStillRunning({pid: stat.pid, startTime: stat.startTime, comm: stat.comm}), 'and the real process still runs');
});

t.test('a zombie counts as gone', async t => {
	// `exec sleep` replaces the shell, so nothing ever waits for the finished background child.
	const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 300']);
	t.teardown(() => parent.kill('SIGKILL'));
	const [line] = await once(parent.stdout, 'data') as [Buffer];
	const zombie = Number(line.toString());
	await sleep(500);
	const stat = readStat(zombie);
	t.equal(stat?.state, 'Z', 'the child is a zombie');
	t.notOk(isStillRunning({pid: zombie, startTime: stat!.startTime, comm: stat!.comm}));
	t.notOk(signalIdentity({pid: zombie, startTime: stat!.startTime, comm: stat!.comm}, 'SIGKILL'));
});
