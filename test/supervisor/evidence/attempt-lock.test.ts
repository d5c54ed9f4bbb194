import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {runInGroup} from '../../../process/index.js';
import {holderRuns, readAttemptLock, releaseAttemptLock, writeAttemptLock} from '../../../supervisor/evidence/attempt-lock.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

t.test('the lock names this process by pid, start time and boot; released, it is gone', async t => {
	const dir = await tempDir(t);
	const lock = writeAttemptLock(dir, {attemptId: 'a', marker: 'HLAB_ATTEMPT_a=1'});
	t.equal(lock.pid, process.pid);
	t.type(lock.start_time, 'number');
	t.match(lock.boot_id, /^[0-9a-f-]{36}$/);
	t.same(readAttemptLock(dir), lock);
	t.ok(holderRuns(lock), 'its holder runs');
	t.throws(() => writeAttemptLock(dir, {attemptId: 'b', marker: 'HLAB_ATTEMPT_b=1'}), {code: 'EEXIST'}, 'a lock is never taken over');
	releaseAttemptLock(dir);
	t.equal(readAttemptLock(dir), null);
});

t.test('a lock whose holder exited, whose pid was reused (another start time) or from another boot is not held', async t => {
	const dir = await tempDir(t);
	const lock = writeAttemptLock(dir, {attemptId: 'a', marker: 'HLAB_ATTEMPT_a=1'});
	let exited = 0;
	await runInGroup({argv: ['true'], deadlineMs: 10_000, onSpawn: pid => { exited = pid; }});
	t.notOk(holderRuns({...lock, pid: exited}), 'a pid that exited');
	t.notOk(holderRuns({...lock, start_time: lock.start_time! + 1}), 'this very pid, but started at another time: reused');
	t.notOk(holderRuns({...lock, boot_id: '00000000-0000-0000-0000-000000000000'}), 'a start time of another boot');
	await writeFile(join(dir, 'lock.json'), '{"torn');
	t.equal(readAttemptLock(dir), null, 'what is not a lock holds nothing');
	t.match(await readFile(join(dir, 'lock.json'), 'utf8'), /torn/);
});
