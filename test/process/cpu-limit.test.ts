import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import t from 'tap';
import {cgroupBase} from '../../process/cgroup/cgroup-base.js';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

const base = cgroupBase();
/** Whether trees' cgroups here get the cpu controller (a unified hierarchy that delegates it); many containers' do not. */
const cpuController = base.ok && readFileSync(join(base.dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('cpu');
/** The command prints its own cgroup's cpu.max, or `none` where its cgroup has no such file. */
const ownCpuMax = ['/bin/sh', '-c', `cat "${base.ok ? base.home : '/sys/fs/cgroup'}$(sed -n 's/^0:://p' /proc/self/cgroup)/cpu.max" 2>/dev/null || echo none`];

t.test('a tree runs under cpu.max where its cgroup has the cpu controller, and the record says whether it did', async t => {
	const run = await runInGroup({argv: ownCpuMax, cpuLimit: 0.5, deadlineMs: 20_000});
	t.equal(run.record.failure, null);
	if (cpuController) {
		t.equal(run.stdout?.toString().trim(), '50000 100000', 'half a CPU: 50 ms per 100 ms');
		t.same(run.record.cpu_limit, {cpus: 0.5, by: 'cgroup'});
	} else {
		t.equal(run.stdout?.toString().trim(), 'none', `no cpu controller here (${base.ok ? base.dir : 'no cgroup'}): nothing bounds the tree`);
		t.equal(run.record.cpu_limit, null, 'and the record does not claim a bound');
	}
	const unbounded = await runInGroup({argv: ownCpuMax, deadlineMs: 20_000});
	t.equal(unbounded.record.cpu_limit, null, 'no limit asked, none recorded');
	if (cpuController) t.equal(unbounded.stdout?.toString().trim(), 'max 100000');
});

t.test('a backend without cgroups cannot bound the CPU, and the record says none was set', async t => {
	const run = await runInGroup({argv: ['true'], cpuLimit: 2, containment: 'proc', deadlineMs: 20_000});
	t.equal(run.record.failure, null);
	t.equal(run.record.cpu_limit, null);
});

t.test('a CPU limit that is not a positive number is refused before anything starts', async t => {
	for (const cpus of [-1, 0, Number.NaN]) await t.rejects(runInGroup({argv: ['true'], cpuLimit: cpus}), RangeError, String(cpus));
});
