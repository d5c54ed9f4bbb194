import type {Test} from 'tap';
import type {Launch} from '../../process/index.js';
import {isRunning, readStat} from '../../process/proc-table.js';
import {cgroupBase} from '../../process/cgroup/cgroup-base.js';

const sh = (script: string) => ['sh', '-c', script];
const alive = (pid: number) => isRunning(readStat(pid));
/** Every backend this machine offers: the cgroup one only where a cgroup v2 can be created (test/process/cgroup-containment covers both cases). */
const backends = cgroupBase().ok ? ['cgroup', 'proc', 'portable'] as const : ['proc', 'portable'] as const;

/**
 * The process-group guarantees, for any way of running a group: runInGroup here (run-group.test.ts) and the same
 * runInGroup in the attempt's spawner (spawner/spawner.test.ts). The caller has called checkNoLeaks.
 */
export function groupCases(t: Test, run: Launch): void {
	t.test('a clean exit keeps its output and exit code, and is not a failure', async t => {
		const {record, stdout, stderr} = await run({argv: sh('printf out; printf err >&2')});
		t.equal(record.exit_code, 0);
		t.equal(record.failure, null);
		t.equal(stdout?.toString(), 'out');
		t.equal(stderr?.toString(), 'err');
		t.equal(record.pgid, record.pid, 'the command leads its own process group');
		t.ok(record.wall_ms > 0, 'wall time comes from the supervisor clock');
		t.same(record.killed, [], 'nothing had to be killed');
	});

	t.test('a non-zero exit is reported as the command\'s own status', async t => {
		const {record} = await run({argv: sh('exit 7')});
		t.equal(record.exit_code, 7);
		t.equal(record.failure, null);
	});

	t.test('a command killed by a signal reports the signal', async t => {
		const {record} = await run({argv: sh('kill -9 $$')});
		t.equal(record.exit_code, null);
		t.equal(record.signal, 'SIGKILL');
	});

	t.test('stdin receives the given input', async t => {
		const {stdout} = await run({argv: ['cat'], input: 'hello'});
		t.equal(stdout?.toString(), 'hello');
	});

	t.test('a missing executable is a spawn failure with its reason', async t => {
		const {record} = await run({argv: ['/nonexistent/binary']});
		t.equal(record.failure, 'spawn');
		t.match(record.failure_message, /ENOENT/);
	});

	t.test('bad options are refused before anything starts', async t => {
		await t.rejects(run({argv: []}), /command is required/);
		await t.rejects(run({argv: ['true'], deadlineMs: -1}), /non-negative/);
	});

	for (const containment of backends) {
		t.test(`${containment}: children left running by a successful parent are ended`, async t => {
			const {record, stdout} = await run({argv: sh('sleep 300 & echo $!; exit 0'), graceMs: 200, containment});
			const child = Number(stdout?.toString());
			t.equal(record.exit_code, 0);
			t.notOk(alive(child), 'the background child is gone');
			t.ok(record.killed.some(entry => entry.pid === child && entry.how === 'term'), 'and the record says it was terminated');
			t.same(record.leaks, [child], 'it outlived the command: a leak');
			t.equal(record.containment, containment);
		});

		t.test(`${containment}: a deadline on a tree that ignores SIGTERM ends within grace + 1 s`, async t => {
			const graceMs = 500;
			const started = performance.now();
			const {record} = await run({
				argv: sh(`trap '' TERM HUP; sh -c "trap '' TERM HUP; sleep 300" & sleep 300`),
				deadlineMs: 300,
				graceMs,
				containment,
			});
			const elapsed = performance.now() - started;
			t.equal(record.failure, 'timeout');
			t.equal(record.timed_out, true);
			t.ok(elapsed < 300 + graceMs + 1000, `ended after ${Math.round(elapsed)} ms`);
			t.ok(record.killed.some(entry => entry.how === 'kill'), 'SIGKILL was needed and recorded');
			t.same(record.survivors, []);
			t.same(record.leaks, [], 'members ended at the deadline were part of the running command, not leaks');
		});

		t.test(`${containment}: a parent that keeps spawning while it is stopped is ended with all its children`, async t => {
			const {record} = await run({argv: sh(`trap '' TERM; while true; do sleep 300 & sleep 0.01; done`), deadlineMs: 300, graceMs: 300, containment});
			t.equal(record.failure, 'timeout');
			t.same(record.survivors, []);
		});
	}

	for (const containment of ['proc', 'portable'] as const) {
		t.test(`${containment}: a grandchild that escaped with setsid is swept by its marker`, async t => {
			const {record, stdout} = await run({argv: sh('setsid -f sh -c \'echo $$; exec sleep 300\'; sleep 0.1; exit 0'), containment});
			const daemon = Number(stdout?.toString().trim());
			t.equal(record.containment, containment);
			t.ok(daemon > 0);
			t.notOk(alive(daemon));
			t.ok(record.killed.some(entry => entry.pid === daemon && entry.how === 'sweep' && !entry.in_group));
			t.same(record.leaks, [daemon], 'the daemon outlived the command: a leak');
		});

		t.test(`${containment}: a grandchild that cleared its environment is found through tracked ancestry`, async t => {
			const {record, stdout} = await run({argv: sh('env -i setsid sh -c \'echo $$; exec sleep 300\' & sleep 0.6; exit 0'), containment});
			const escaped = Number(stdout?.toString().trim());
			t.notOk(alive(escaped));
			t.ok(record.killed.some(entry => entry.pid === escaped && entry.how === 'sweep'));
		});
	}

	t.test('without the sweep the escaped process survives and the record says so', async t => {
		const {record, stdout} = await run({argv: sh('setsid -f sh -c \'echo $$; exec sleep 300\'; sleep 0.1'), sweep: false, containment: 'proc'});
		const daemon = Number(stdout?.toString().trim());
		t.same(record.survivors, [daemon], 'the survivor is reported, not hidden');
		process.kill(daemon, 'SIGKILL');
	});

	t.test('a grandchild holding the stdout pipe open does not hang the caller', async t => {
		const started = performance.now();
		const {record, stdout} = await run({argv: sh('setsid sh -c \'echo held; exec sleep 300\' & echo done')});
		t.ok(performance.now() - started < 5000);
		t.match(stdout?.toString(), /done/);
		t.same(record.survivors, []);
	});

	t.test('aborting through an AbortSignal ends the tree and names the reason', async t => {
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 200);
		const {record} = await run({argv: sh('sleep 300 & sleep 300'), signal: controller.signal, graceMs: 200});
		t.equal(record.failure, 'aborted');
		t.same(record.survivors, []);
		const before = new AbortController();
		before.abort();
		const early = await run({argv: ['true'], signal: before.signal});
		t.equal(early.record.failure, 'aborted');
		t.equal(early.record.pid, null, 'an aborted run never starts');
	});
}
