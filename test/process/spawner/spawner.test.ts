import {existsSync, readFileSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {startSpawner} from '../../../process/index.js';
import {cgroupBase} from '../../../process/cgroup/cgroup-base.js';
import {isRunning, readStat} from '../../../process/proc-table.js';
import {checkNoLeaks} from '../../leak-check.js';
import {groupCases} from '../group-cases.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

const sh = (script: string) => ['sh', '-c', script];
const alive = (pid: number) => isRunning(readStat(pid));
const backends = cgroupBase().ok ? ['cgroup', 'proc', 'portable'] as const : ['proc', 'portable'] as const;

const spawner = await startSpawner();
t.teardown(() => spawner.close());

// Every process-group guarantee, with the fork done by the spawner.
groupCases(t, spawner.run);

t.test('the launch is forked by the spawner, not by this process', async t => {
	const {stdout} = await spawner.run({argv: sh('echo $PPID'), deadlineMs: 10_000});
	const parent = Number(stdout?.toString().trim());
	t.not(parent, process.pid);
	t.equal(readStat(parent)?.ppid, process.pid, 'its parent is this process\'s child, the spawner');
});

t.test('a cgroup launch is placed in the spawner\'s sub-base, where one cgroup.kill ends every tree', {skip: !cgroupBase().ok && 'no cgroup v2 here'}, async t => {
	const {stdout} = await spawner.run({argv: sh('cat /proc/self/cgroup'), containment: 'cgroup', deadlineMs: 10_000});
	t.match(stdout?.toString(), new RegExp(`/hlab-${process.pid}/spawner-[0-9a-f]{8}/tree-[0-9a-f]{8}\\n`));
});

t.test('the environment is this process\'s now, not the spawner\'s at its start', async t => {
	process.env.HLAB_SPAWNER_TEST_LATE = 'late';
	const {stdout} = await spawner.run({argv: sh('echo "$HLAB_SPAWNER_TEST_LATE/$HLAB_SPAWNER_TEST_GONE"'), env: {HLAB_SPAWNER_TEST_GONE: undefined}, deadlineMs: 10_000});
	delete process.env.HLAB_SPAWNER_TEST_LATE;
	t.equal(stdout?.toString(), 'late/\n');
});

t.test('stdout bytes pass back whole, beyond what a pipe holds', async t => {
	const {record, stdout} = await spawner.run({argv: sh('head -c 3000000 /dev/zero'), stdoutLimit: 4_000_000, deadlineMs: 30_000});
	t.equal(record.exit_code, 0);
	t.ok(Buffer.isBuffer(stdout));
	t.equal(stdout?.length, 3_000_000);
});

for (const containment of backends) {
	t.test(`${containment}: a command that kills the spawner and then answers is a failure, and nothing of it survives`, async t => {
		const own = await startSpawner();
		t.teardown(() => own.close());
		// The attack: find the parent, SIGKILL it, leave a daemon behind, then write a good answer and exit 0.
		const script = 'setsid -f sh -c \'echo $$ > daemon.pid; exec sleep 300\'; sleep 0.2; kill -9 $PPID; sleep 0.5; echo \'{"ok":true}\'; exit 0';
		const dir = await tempDir(t);
		const {record, stdout} = await own.run({argv: sh(script), cwd: dir, containment, deadlineMs: 30_000, graceMs: 200});
		t.equal(record.failure, 'spawner', 'the named reason');
		t.match(record.failure_message, /killed by SIGKILL while the command ran; its tree was ended/);
		t.equal(record.exit_code, null, 'no exit status was seen: none is claimed');
		t.equal(stdout?.length, 0, 'nothing it wrote counts as its answer');
		t.same([record.stdout.bytes_seen, record.stdout.overflowed], [null, null], 'what the lost spawner read of its output is unknown, not none');
		t.ok(record.cleanup_ms > 0, `the trees' end is timed (${record.cleanup_ms.toFixed(1)} ms), not taken for instant`);
		t.same(record.survivors, [], 'no process carries its marker after the end');
		const daemon = Number(readFileSync(`${dir}/daemon.pid`, 'utf8'));
		t.ok(daemon > 0);
		t.notOk(alive(daemon), 'the daemon that left the group is ended with the spawner\'s trees');
		const again = await own.run({argv: sh('echo again'), containment, deadlineMs: 10_000});
		t.equal(again.record.failure, null, 'the next launch gets a new spawner');
		t.equal(again.stdout?.toString(), 'again\n');
	});
}

t.test('every launch in flight fails when the spawner dies, not only the one that killed it', async t => {
	const own = await startSpawner();
	t.teardown(() => own.close());
	const dir = await tempDir(t);
	const bystander = own.run({argv: sh('echo $$ > bystander.pid; exec sleep 300'), cwd: dir, deadlineMs: 30_000});
	await sleep(300);
	const killer = await own.run({argv: sh('kill -9 $PPID; sleep 300'), deadlineMs: 30_000});
	const other = await bystander;
	t.equal(killer.record.failure, 'spawner');
	t.equal(other.record.failure, 'spawner');
	t.notOk(alive(Number(readFileSync(`${dir}/bystander.pid`, 'utf8'))), 'the bystander\'s tree is ended too');
});

t.test('a spawner stopped by its command is taken for hung past the deadline, ended, and the launch fails', async t => {
	const own = await startSpawner({answerSlackMs: 500});
	t.teardown(() => own.close());
	const dir = await tempDir(t);
	const started = performance.now();
	const {record} = await own.run({argv: sh('echo $PPID > spawner.pid; kill -STOP $PPID; exec sleep 300'), cwd: dir, deadlineMs: 300, graceMs: 100});
	const spawnerPid = Number(readFileSync(`${dir}/spawner.pid`, 'utf8'));
	t.equal(record.failure, 'spawner');
	t.match(record.failure_message, /did not answer within 500 ms/);
	t.ok(performance.now() - started < 300 + 100 + 2000 + 100 + 500 + 5000, 'within the watchdog and the spawner\'s own stop');
	t.notOk(alive(spawnerPid), 'the hung spawner is ended');
});

t.test('an abort is relayed: the tree ends with the reason', async t => {
	const controller = new AbortController();
	setTimeout(() => controller.abort(), 300);
	const {record} = await spawner.run({argv: sh('sleep 300 & sleep 300'), signal: controller.signal, graceMs: 200, deadlineMs: 30_000});
	t.equal(record.failure, 'aborted');
	t.same(record.survivors, []);
});

t.test('launches asked for at once each start on their own turn: a command\'s time is its own, not the time of the forks after it', async t => {
	// Each command ends as soon as its input arrives. Forked all in one go, each would wait for the forks after it to
	// get its input, see its exit or hear its deadline: the median of 300 was ~100 ms, against ~7 ms one a turn.
	const count = 300;
	const started = performance.now();
	const runs = await Promise.all(Array.from({length: count}, () => spawner.run({argv: sh('read line; test "$line" = go'), input: 'go\n', deadlineMs: 60_000})));
	const burstMs = performance.now() - started;
	t.ok(runs.every(run => run.record.exit_code === 0), 'every command read its input');
	const walls = runs.map(run => run.record.wall_ms).sort((a, b) => a - b);
	const median = walls[count >> 1]!;
	t.ok(median < burstMs / 30, `a command's median wall time (${median.toFixed(1)} ms) is a small part of the burst's (${burstMs.toFixed(0)} ms)`);
});

t.test('an abort that comes while its launch waits its turn ends it before its start: nothing is forked', async t => {
	const controller = new AbortController();
	const before = Array.from({length: 30}, () => spawner.run({argv: ['true'], deadlineMs: 60_000}));
	const last = spawner.run({argv: sh('sleep 300'), signal: controller.signal, deadlineMs: 60_000});
	controller.abort();
	const {record} = await last;
	await Promise.all(before);
	t.equal(record.failure, 'aborted');
	t.equal(record.pid, null, 'never started');
});

t.test('closing the spawner ends it and removes its sub-base', async t => {
	const own = await startSpawner();
	const {stdout} = await own.run({argv: sh('echo $PPID; cat /proc/self/cgroup'), deadlineMs: 10_000});
	const [pid, ...cgroup] = stdout!.toString().trim().split('\n');
	await own.close();
	t.notOk(alive(Number(pid)), 'the spawner is gone');
	const base = cgroupBase();
	const sub = cgroup.find(line => line.startsWith('0::'))?.match(/(spawner-[0-9a-f]{8})/)?.[1];
	if (base.ok && sub !== undefined) t.notOk(existsSync(`${base.dir}/${sub}`), 'its cgroup sub-base is removed');
	await t.rejects(own.run({argv: ['true']}), /closed/);
});
