import t from 'tap';
import {cgroupBase} from '../../process/cgroup/cgroup-base.js';
import type {Containment} from '../../process/containment.js';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

const mib = 1024 ** 2;
/** A process (Node, as agents and hosts are) that allocates and touches `n` MiB, then says it did. */
const allocate = (n: number): string[] => [process.execPath, '-e', `const b = Buffer.alloc(${n} * 1024 * 1024, 1); console.log('held', b.length)`];
/** Where the memory controller is ours, the cgroup bounds the tree; here (no controller delegated) RLIMIT_DATA does. */
const by = cgroupBase().ok ? ['cgroup', 'rlimit_data'] : ['rlimit_data'];
/** Each backend starts the command its own way (the cgroup's shim, or none), and each must bound it. */
const backends: Containment[] = cgroupBase().ok ? ['cgroup', 'proc'] : ['proc'];
/** The soft and hard RLIMIT_DATA the command itself sees, in bytes. */
const dataLimitSeen = (stdout: string): string | undefined => /^Max data size\s+(\S+)\s+(\S+)/m.exec(stdout)?.slice(1).join(' ');

for (const containment of backends) t.test(`${containment}: a process that allocates past its memory limit fails to, and the record says how it was bounded`, async t => {
	const run = await runInGroup({argv: allocate(512), memoryLimitBytes: 256 * mib, deadlineMs: 30_000, stderrLimit: 64 * 1024, containment});
	t.not(run.record.exit_code, 0, 'the allocation failed');
	t.notMatch(run.stdout?.toString() ?? '', /held/);
	t.ok(by.includes(run.record.memory_limit?.by ?? ''), `bounded by ${run.record.memory_limit?.by}`);
	t.equal(run.record.memory_limit?.bytes, 256 * mib);
	t.same(run.record.argv, allocate(512), 'the record names the command, not the wrapper');
	if (run.record.memory_limit?.by === 'rlimit_data') {
		t.equal(run.record.memory_limit.oom_kills, null, 'a failed allocation under RLIMIT_DATA is the process\'s own error: no count');
		t.equal(run.record.resources.peak_memory_bytes, null, 'no cgroup: peak memory unknown, never 0');
	}
});

t.test('without the limit the same allocation succeeds: it is the limit that refused it', async t => {
	const run = await runInGroup({argv: allocate(512), deadlineMs: 30_000});
	t.equal(run.record.exit_code, 0);
	t.match(run.stdout?.toString() ?? '', /held 536870912/);
	t.equal(run.record.memory_limit, null, 'and the record says there was none');
});

for (const containment of backends) t.test(`${containment}: every process of the tree inherits the limit; what fits under it runs as usual`, async t => {
	const child = `${JSON.stringify(process.execPath)} -e "Buffer.alloc(512 * 1024 * 1024, 1)" || echo child-refused; ${JSON.stringify(process.execPath)} -e "Buffer.alloc(16 * 1024 * 1024, 1)" && echo small-ok`;
	const run = await runInGroup({argv: ['/bin/sh', '-c', child], memoryLimitBytes: 256 * mib, deadlineMs: 30_000, stderrLimit: 64 * 1024, containment});
	t.equal(run.record.exit_code, 0);
	t.match(run.stdout?.toString() ?? '', /child-refused\nsmall-ok/);
});

for (const containment of backends) t.test(`${containment}: the command sees the limit as its own, soft and hard, in the bytes asked for`, async t => {
	const run = await runInGroup({argv: ['cat', '/proc/self/limits'], memoryLimitBytes: 256 * mib, containment});
	t.equal(run.record.exit_code, 0);
	if (run.record.memory_limit?.by === 'cgroup') return t.pass('the cgroup bounds the tree instead');
	t.equal(dataLimitSeen(run.stdout?.toString() ?? ''), `${256 * mib} ${256 * mib}`);
	const odd = await runInGroup({argv: ['cat', '/proc/self/limits'], memoryLimitBytes: 256 * mib + 1000, containment});
	t.equal(dataLimitSeen(odd.stdout?.toString() ?? ''), `${256 * mib} ${256 * mib}`, 'a limit between whole KiB is set to the KiB below: the kernel counts pages');
	t.equal(odd.record.memory_limit?.bytes, 256 * mib + 1000, 'and the record keeps what was asked');
});

for (const containment of backends) t.test(`${containment}: a missing executable under a limit is a spawn failure, not the shim's exit`, async t => {
	const {record} = await runInGroup({argv: ['no-such-command-hlab'], memoryLimitBytes: 256 * mib, containment});
	t.equal(record.failure, 'spawn');
	t.match(record.failure_message, /ENOENT/);
});

t.test('a limit that is not a size is refused before anything starts', async t => {
	for (const bytes of [-1, 0, 1.5, Number.NaN]) await t.rejects(runInGroup({argv: ['true'], memoryLimitBytes: bytes}), RangeError, String(bytes));
});
