import t from 'tap';
import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {chooseContainment, runInGroup} from '../../process/index.js';
import {ProcessRecord} from '../../process/process-record.js';
import {cgroupBase} from '../../process/cgroup/cgroup-base.js';
import {checkNoLeaks} from '../leak-check.js';
import {hlab} from '../hlab.js';

checkNoLeaks(t);

t.test('passes output through and exits with the command\'s status', async t => {
	const {record, stdout} = await hlab(['supervise', '--', 'sh', '-c', 'echo through; exit 5']);
	t.equal(record.exit_code, 5);
	t.equal(stdout, 'through\n');
});

t.test('exits 124 after the deadline and writes the record', async t => {
	const dir = await mkdtemp(path.join(tmpdir(), 'hlab-supervise-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	const file = path.join(dir, 'process.json');
	const {record, stderr} = await hlab(['supervise', '--deadline', '300ms', '--grace', '200ms', '--record', file, '--', 'sh', '-c', "trap '' TERM; sleep 300"]);
	t.equal(record.exit_code, 124);
	t.match(stderr, /deadline/);
	const written = ProcessRecord.parse(JSON.parse(await readFile(file, 'utf8')));
	t.equal(written.failure, 'timeout');
	t.ok(written.killed.length > 0);
});

t.test('exits 123 when stdout exceeds its limit', async t => {
	const {record, stdout} = await hlab(['supervise', '--stdout-limit', '1KiB', '--', 'sh', '-c', 'yes']);
	t.equal(record.exit_code, 123);
	t.equal(stdout.length, 1024, 'exactly the limit was passed through');
});

t.test('bad input gets a one-line error and a non-zero exit', async t => {
	for (const [args, pattern] of [
		[['supervise'], /missing required argument/],
		[['supervise', '--deadline', '-1s', '--', 'true'], /invalid duration/],
		[['supervise', '--stdout-limit', 'lots', '--', 'true'], /invalid size/],
	] as const) {
		const {record, stderr} = await hlab([...args]);
		t.equal(record.exit_code, 2, args.join(' '));
		t.match(stderr, pattern);
	}
	const missing = await hlab(['supervise', '--', '/nonexistent/cmd']);
	t.equal(missing.record.exit_code, 127);
});

t.test('every cleanup scenario driven from the command line leaves nothing behind', async t => {
	const {cleanupScenarios} = await import('../../checks/process-cleanup/scenarios.js');
	const dir = await mkdtemp(path.join(tmpdir(), 'hlab-supervise-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	// The default backend of `hlab supervise` here; a scenario it cannot catch is covered by the check's own tests.
	const containment = chooseContainment();
	for (const scenario of cleanupScenarios.filter(scenario => scenario.caughtBy.includes(containment))) {
		const pids = path.join(dir, `${scenario.name}.pids`);
		const deadline = scenario.timeoutMs === null ? [] : ['--deadline', `${scenario.timeoutMs}ms`];
		const run = await runInGroup({
			argv: [process.execPath, hlabBin(), 'supervise', ...deadline, '--grace', `${scenario.graceMs}ms`, '--', 'sh', '-c', scenario.script],
			env: {PIDS: pids},
			deadlineMs: 20_000,
			// The outer supervisor sweeps by marker and ancestry, so a sweep in its record means the inner one missed something.
			containment: 'proc',
		});
		t.same(run.record.survivors, [], `${scenario.name}: the outer supervisor found nothing left either`);
		t.notOk(run.record.killed.some(entry => entry.how === 'sweep'), `${scenario.name}: hlab supervise cleaned up by itself`);
	}
});

/** `hlab supervise` run inside an outer cgroup-contained supervisor, which catches whatever the inner one leaves. */
async function superviseEscape(containment: string, dir: string) {
	const file = path.join(dir, `${containment}.json`);
	const run = await runInGroup({
		argv: [process.execPath, hlabBin(), 'supervise', '--containment', containment, '--grace', '200ms', '--record', file, '--', 'sh', '-c', 'env -i setsid /bin/sleep 300 & exit 0'],
		containment: 'cgroup',
		graceMs: 200,
		deadlineMs: 20_000,
	});
	return {outer: run.record, stderr: run.stderr?.toString() ?? '', inner: ProcessRecord.parse(JSON.parse(await readFile(file, 'utf8')))};
}

if (cgroupBase().ok) {
	t.test('the issue\'s escape (env -i setsid, parent exits at once) leaves nothing with the cgroup backend, and is reported', async t => {
		const dir = await mkdtemp(path.join(tmpdir(), 'hlab-supervise-'));
		t.teardown(() => rm(dir, {recursive: true, force: true}));
		const {outer, stderr, inner} = await superviseEscape('cgroup', dir);
		t.equal(outer.exit_code, 0);
		t.equal(inner.containment, 'cgroup');
		t.equal(inner.leaks.length, 1, 'the sleeper is the leak');
		t.match(stderr, /ended 1 process\(es\) that outlived the command \[cgroup\]: \d+ \(\w+\)\n$/);
		t.same(outer.leaks, [], 'the outer supervisor found nothing left behind');
	});

	t.test('the same escape with the /proc backend is caught only if a scan lands while its parent lives; the outer cgroup ends what it misses', async t => {
		const dir = await mkdtemp(path.join(tmpdir(), 'hlab-supervise-'));
		t.teardown(() => rm(dir, {recursive: true, force: true}));
		const {outer, inner} = await superviseEscape('proc', dir);
		t.equal(inner.containment, 'proc');
		// Usually missed (the README's table says so). On a loaded machine the ancestry scan can still see the parent, or the
		// group kill can land before `setsid` ran, which ends the child as a group member. A child listed in the group just
		// before it called `setsid` is named by the inner stop (it signalled the group) and then by the outer cgroup, which
		// ends it: one process named twice, never two.
		const named = new Set([...inner.leaks, ...outer.leaks]);
		t.ok(named.size <= 1, 'the sleeper was ended once, by the inner supervisor or by the outer cgroup', {inner: inner.killed, outer: outer.killed});
		t.same(outer.survivors, [], 'nothing outlived the outer cgroup');
		if (outer.leaks.length === 1) t.equal(outer.killed.find(entry => entry.pid === outer.leaks[0])?.comm, 'sleep');
	});
}

t.test('a bad containment backend is refused as bad input', async t => {
	const {record, stderr} = await hlab(['supervise', '--containment', 'docker', '--', 'true']);
	t.equal(record.exit_code, 2);
	t.match(stderr, /invalid containment backend: docker/);
});

function hlabBin(): string {
	return path.resolve(import.meta.dirname, '../../../bin/hlab.js');
}
