import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import {cgroupBase} from '../../process/cgroup/cgroup-base.js';
import {chooseContainment, containmentVariable} from '../../process/containment.js';
import {runInGroup} from '../../process/index.js';
import {isRunning, readStat} from '../../process/proc-table.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const base = cgroupBase();
const alive = (pid: number) => isRunning(readStat(pid));

/** The escape of the containment issue: the daemon clears its environment and leaves the group; its parent exits at once. */
const escape = (pidFile: string) => ['sh', '-c', `env -i setsid sh -c 'echo $$ > "$1"; exec sleep 300' sh "${pidFile}" & while [ ! -s "${pidFile}" ]; do :; done; exit 0`];

t.test('the backend is chosen, can be forced, and a bad name is refused', async t => {
	t.equal(chooseContainment('proc'), 'proc');
	t.equal(chooseContainment('portable'), 'portable');
	t.equal(chooseContainment(), base.ok ? 'cgroup' : 'proc', 'the strongest available by default');
	const saved = process.env[containmentVariable];
	t.teardown(() => {
		if (saved === undefined) delete process.env[containmentVariable];
		else process.env[containmentVariable] = saved;
	});
	process.env[containmentVariable] = 'portable';
	t.equal(chooseContainment(), 'portable', 'the environment variable forces it');
	t.equal((await runInGroup({argv: ['true']})).record.containment, 'portable', 'and the record says which');
	process.env[containmentVariable] = 'docker';
	t.throws(() => chooseContainment(), /HLAB_CONTAINMENT must be one of cgroup, proc, portable/);
});

if (base.ok) {
	t.test('cgroup: the env-cleared setsid daemon whose parent exits at once leaves nothing, and is a recorded leak', async t => {
		const pidFile = path.join(await tempDir(t), 'daemon');
		const {record} = await runInGroup({argv: escape(pidFile), containment: 'cgroup', graceMs: 200});
		const daemon = Number(await readFile(pidFile, 'utf8'));
		t.ok(daemon > 0);
		t.notOk(alive(daemon), 'the daemon is gone');
		t.same(record.survivors, []);
		t.ok(record.killed.some(entry => entry.pid === daemon && !entry.in_group), 'ended although it had left the group');
		t.ok(record.leaks.includes(daemon), 'and listed as a leak');
	});

	t.test('cgroup: a daemon that made a cgroup of its own below the tree, ignoring SIGTERM, is ended and named as killed', async t => {
		const pidFile = path.join(await tempDir(t), 'daemon');
		// Leaves the group, moves into a new cgroup below its tree's (as a nested supervisor does), and ignores SIGTERM.
		const inner = `trap "" TERM; own=${base.dir}/$(basename "$(grep "^0::" /proc/self/cgroup)"); mkdir "$own/inner"; echo $$ > "$own/inner/cgroup.procs"; grep "^0::" /proc/self/cgroup > "$1.where"; echo $$ > "$1"; exec sleep 300`;
		const argv = ['sh', '-c', `env -i setsid sh -c '${inner}' sh "${pidFile}" & while [ ! -s "${pidFile}" ]; do :; done; exit 0`];
		const {record} = await runInGroup({argv, containment: 'cgroup', graceMs: 200});
		const daemon = Number(await readFile(pidFile, 'utf8'));
		t.match(await readFile(`${pidFile}.where`, 'utf8'), /\/tree-[^/]+\/inner\n$/, 'it had moved below its tree\'s cgroup');
		t.notOk(alive(daemon), 'the daemon is gone');
		t.same(record.survivors, []);
		t.ok(record.killed.some(entry => entry.pid === daemon && entry.how === 'kill'), `named among the killed: ${JSON.stringify(record.killed)}`);
		t.same(readdirSync(base.dir, {withFileTypes: true}).filter(entry => entry.isDirectory()).map(entry => entry.name), [], 'no tree cgroup is left');
	});

	t.test('proc: the same escape is missed (the test above can fail)', async t => {
		const pidFile = path.join(await tempDir(t), 'daemon');
		const {record} = await runInGroup({argv: escape(pidFile), containment: 'proc', graceMs: 200});
		const daemon = Number(await readFile(pidFile, 'utf8'));
		t.ok(alive(daemon), 'the /proc sweep cannot find a process with no marker and no tracked ancestry');
		t.same(record.leaks, [], 'and so it records no leak');
		process.kill(daemon, 'SIGKILL');
	});

	t.test('cgroup: the record measures the tree, and the tree cgroup is removed', async t => {
		const {record} = await runInGroup({argv: ['sh', '-c', 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 300 & exit 0'], containment: 'cgroup', graceMs: 200});
		t.equal(record.containment, 'cgroup');
		t.ok(record.resources.cpu_user_ms !== null && record.resources.cpu_user_ms > 0, `user CPU measured: ${record.resources.cpu_user_ms} ms`);
		t.type(record.resources.cpu_system_ms, 'number');
		const enabled = readFileSync(path.join(base.dir, 'cgroup.subtree_control'), 'utf8');
		t.equal(record.resources.peak_memory_bytes === null, !enabled.includes('memory'), 'peak memory is null exactly where the memory controller is not ours');
		t.equal(record.resources.peak_processes === null, !enabled.includes('pids'), 'peak processes is null exactly where the pids controller is not ours');
		t.same(readdirSync(base.dir, {withFileTypes: true}).filter(entry => entry.isDirectory()).map(entry => entry.name), [], 'no tree cgroup is left');
	});

	// Only root can drop to another user; a delegated non-root subtree is itself the other case.
	if (process.getuid?.() === 0) t.test('a supervisor that may not create a cgroup (an unprivileged user) falls back to /proc, and a forced cgroup names why not', async t => {
		const script = `
			const {runInGroup, chooseContainment} = await import(${JSON.stringify(new URL('../../process/index.js', import.meta.url).href)});
			const {record} = await runInGroup({argv: ['sh', '-c', 'sleep 300 & exit 0'], graceMs: 100});
			let forced = null;
			try { chooseContainment('cgroup'); } catch (error) { forced = error.message; }
			console.log(JSON.stringify({containment: record.containment, leaks: record.leaks.length, survivors: record.survivors, forced}));`;
		const {record, stdout} = await runInGroup({argv: ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '--input-type=module', '-e', script], cwd: '/', containment: 'cgroup'});
		t.equal(record.exit_code, 0, stdout?.toString() ?? '');
		const seen = JSON.parse(stdout!.toString()) as {containment: string; leaks: number; survivors: number[]; forced: string | null};
		t.equal(seen.containment, 'proc');
		t.equal(seen.leaks, 1, 'the /proc sweep still ended the background sleep');
		t.same(seen.survivors, []);
		t.match(seen.forced, /^cgroup containment is unavailable: cannot create .*hlab-\d+: EACCES$/);
		t.same(record.leaks, [], 'and the outer cgroup found nothing left');
	});

	t.test('cgroup: a missing executable is still a spawn failure, not the shim\'s exit', async t => {
		const {record} = await runInGroup({argv: ['no-such-command-hlab'], containment: 'cgroup'});
		t.equal(record.failure, 'spawn');
		t.match(record.failure_message, /ENOENT/);
	});
} else {
	t.test('without a cgroup v2 of our own, forcing it fails with its reason', async t => {
		t.throws(() => chooseContainment('cgroup'), /cgroup containment is unavailable: ./);
		t.equal(base.ok ? null : base.reason.length > 0, true);
	});
}

if (base.ok) {
	t.test('cgroup: a base a worker thread created goes with the process, though the thread was terminated', async t => {
		const dir = await tempDir(t);
		const script = path.join(dir, 'terminated-worker.mjs');
		const processLayer = new URL('../../process/index.js', import.meta.url).href;
		// As in a supervisor, the main thread has the process layer loaded; a thread's tool command creates the base, and
		// terminate() runs none of the thread's exit hooks.
		await writeFile(script, `import {Worker} from 'node:worker_threads';
await import(${JSON.stringify(processLayer)});
const worker = new Worker(${JSON.stringify(`import {parentPort} from 'node:worker_threads'; const {runInGroup} = await import(${JSON.stringify(processLayer)}); await runInGroup({argv: ['true'], containment: 'cgroup'}); parentPort.postMessage('ran'); setInterval(() => {}, 1000);`)}, {eval: true});
worker.once('message', async () => { await worker.terminate(); console.log(process.pid); });
`);
		// Outside this test's cgroup tree, as a supervisor runs: its base sits beside this process's own.
		const run = await runInGroup({argv: [process.execPath, script], containment: 'proc', deadlineMs: 30_000});
		t.equal(run.record.exit_code, 0, run.stderr?.toString() ?? '');
		const pid = Number(run.stdout?.toString().trim());
		const left = path.join(base.home, `hlab-${pid}`);
		t.ok(pid > 0, `the process ${pid} ran`);
		t.notOk(existsSync(left), `${left} is gone`);
	});
}
