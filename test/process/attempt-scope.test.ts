import {spawn} from 'node:child_process';
import {randomInt} from 'node:crypto';
import {readFileSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';
import t, {type Test} from 'tap';
import {openAttemptScope, runInGroup, type AttemptScope} from '../../process/index.js';
import {cgroupBase} from '../../process/cgroup/cgroup-base.js';
import {readArgv, readTable} from '../../process/proc-table.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

const marker = `HLAB_ATTEMPT_SCOPETEST${randomInt(1e9)}`;

/** A duration no other sleep picks, to find exactly these processes. */
const tagOf = (): string => `400.${randomInt(1e8, 1e9)}`;

function tagged(tag: string): number[] {
	return readTable().filter(stat => readArgv(stat.pid)?.includes(tag)).map(stat => stat.pid);
}

/** Waits until `count` sleeps carrying the tag run and no setsid is still between its fork and its exit. */
async function settled(tag: string, count: number): Promise<void> {
	const ready = (): boolean => {
		const stats = readTable().filter(stat => readArgv(stat.pid)?.includes(tag));
		return stats.filter(stat => stat.comm === 'sleep').length >= count && stats.every(stat => stat.comm === 'sleep');
	};
	for (let round = 0; round < 500 && !ready(); round += 1) await sleep(10);
}

/** The escape: a cleared environment, a new session, and a parent (setsid) that exits at once. */
function daemon(tag: string): void {
	spawn('/usr/bin/setsid', ['/usr/bin/sleep', tag], {detached: true, stdio: 'ignore', env: {}}).unref();
}

function withScope(t: Test, scope: AttemptScope): AttemptScope {
	t.teardown(() => scope.close());
	return scope;
}

t.test('cgroup: a daemon started from the supervisor is found in the attempt leaf, ended and described', {skip: cgroupBase().ok ? false : 'no cgroup v2 to own here'}, async t => {
	const home = readFileSync('/proc/self/cgroup', 'utf8');
	const serviceTag = tagOf();
	const scope = openAttemptScope(`${marker}=1`, 'cgroup');
	t.equal(scope.backend, 'cgroup');
	t.match(readFileSync('/proc/self/cgroup', 'utf8'), /\/hlab-\d+\/attempt-[0-9a-f]+\/supervisor\n/, 'the supervisor moved into the attempt leaf');
	// A service started before the first task is the attempt's own.
	const service = spawn('/usr/bin/sleep', [serviceTag], {stdio: 'ignore'});
	await settled(serviceTag, 1);
	scope.knowServices();
	const tag = tagOf();
	daemon(tag);
	daemon(tag);
	await settled(tag, 2);
	const audit = await scope.audit();
	t.same(tagged(tag), [], 'both daemons are gone');
	const leaked = audit.leaked.filter(leak => leak.argv?.includes(tag));
	t.equal(leaked.length, 2);
	t.ok(leaked.every(leak => leak.found === 'attempt-cgroup' && leak.ended === 'cgroup-kill' && leak.comm === 'sleep'));
	t.same(audit.survivors, []);
	t.equal(tagged(serviceTag).length, 1, 'the known service still runs');
	t.same((await scope.audit()).leaked, [], 'a second look finds nothing');
	service.kill('SIGKILL');
	scope.close();
	t.equal(readFileSync('/proc/self/cgroup', 'utf8'), home, 'closing puts the supervisor back');
});

t.test('proc: what keeps the marker or its parent is caught; the environment-cleared setsid daemon escapes', async t => {
	const scope = withScope(t, openAttemptScope(`${marker}=1`, 'proc'));
	t.equal(scope.backend, 'proc');
	scope.knowServices();
	const marked = tagOf();
	const child = tagOf();
	const escaped = tagOf();
	// Inherits the marker, and leaves its parent and group.
	spawn('/usr/bin/setsid', ['/usr/bin/sleep', marked], {detached: true, stdio: 'ignore', env: {...process.env, [marker]: '1'}}).unref();
	// No marker, but still the supervisor's child.
	spawn('/usr/bin/sleep', [child], {detached: true, stdio: 'ignore', env: {}}).unref();
	daemon(escaped);
	await settled(marked, 1);
	await settled(child, 1);
	await settled(escaped, 1);
	const audit = await scope.audit();
	t.same(tagged(marked), []);
	t.same(tagged(child), []);
	t.same(audit.leaked.find(leak => leak.argv?.includes(marked))?.found, 'attempt-marker');
	t.same(audit.leaked.find(leak => leak.argv?.includes(child))?.found, 'supervisor-child');
	const left = tagged(escaped);
	for (const pid of left) process.kill(pid, 'SIGKILL');
	// What the cgroup test catches and this backend cannot: the cgroup test could fail without its backend.
	t.equal(left.length, 1, 'the cleared-environment setsid daemon survived the /proc scope');
	t.notOk(audit.leaked.some(leak => leak.argv?.includes(escaped)), 'and the audit could not name it');
});

t.test('a supervised tree running during an audit is its own tree\'s business, not a leak', async t => {
	for (const backend of cgroupBase().ok ? ['cgroup', 'proc'] as const : ['proc'] as const) {
		const scope = openAttemptScope(`${marker}=1`, backend);
		scope.knowServices();
		const running = runInGroup({argv: ['/usr/bin/sleep', '0.5']});
		await sleep(100);
		const audit = await scope.audit();
		const {record} = await running;
		scope.close();
		t.equal(record.exit_code, 0, `${backend}: the tree ended by itself`);
		t.same(audit.leaked, [], `${backend}: nothing was taken for a leak`);
	}
});
