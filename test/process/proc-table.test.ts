import {spawn} from 'node:child_process';
import {once} from 'node:events';
import t, {type Test} from 'tap';
import {carriesMarker, freshTable, lastCreatedPid, readStat} from '../../process/proc-table.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

/** A real `sleep` whose environment carries `extra`; killed when the test ends. */
async function sleeper(t: Test, extra: Record<string, string>): Promise<number> {
	const child = spawn('sh', ['-c', 'echo ready; exec sleep 300'], {env: {...process.env, ...extra}});
	t.teardown(() => child.kill('SIGKILL'));
	await once(child.stdout, 'data');
	return child.pid!;
}

t.test('a marker is found in the environment of the process that carries it, and only there', async t => {
	const marked = await sleeper(t, {HLAB_SPEC_MARKER: '1'});
	const other = await sleeper(t, {});
	t.ok(carriesMarker(readStat(marked)!, 'HLAB_SPEC_MARKER=1'));
	t.notOk(carriesMarker(readStat(marked)!, 'HLAB_SPEC_MARKER=2'), 'the value must match too');
	t.notOk(carriesMarker(readStat(other)!, 'HLAB_SPEC_MARKER=1'));
	t.throws(() => carriesMarker(readStat(marked)!, 'PATH=/bin'), /must start with HLAB_/);
});

t.test('the cache answers only for the process it read: another start time under the same pid is read afresh', async t => {
	const child = spawn('sh', ['-c', 'echo ready; exec sleep 300'], {env: {...process.env, HLAB_SPEC_REUSED: '1'}});
	t.teardown(() => child.kill('SIGKILL'));
	await once(child.stdout, 'data');
	const stat = readStat(child.pid!)!;
	t.ok(carriesMarker(stat, 'HLAB_SPEC_REUSED=1'));
	child.kill('SIGKILL');
	await once(child, 'exit');
	// A later process under this pid would have another start time; this one is gone, so a fresh read finds nothing.
	t.notOk(carriesMarker({...stat, startTime: stat.startTime + 1}, 'HLAB_SPEC_REUSED=1'));
});

t.test('callers in the same turn share one table read, taken after they asked', async t => {
	const pid = await sleeper(t, {});
	const [first, second] = await Promise.all([freshTable(), freshTable()]);
	t.equal(first, second, 'one read for both');
	t.ok(first.some(stat => stat.pid === pid), 'it sees a process started before the call');
	t.not(await freshTable(), first, 'a later call gets a new read');
});

t.test('the last created pid moves when a process starts', async t => {
	const before = lastCreatedPid();
	t.type(before, 'number');
	await sleeper(t, {});
	t.not(lastCreatedPid(), before);
});
