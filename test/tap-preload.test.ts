import {execFileSync} from 'node:child_process';
import {readFile, writeFile} from 'node:fs/promises';
import module from 'node:module';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {Worker} from 'node:worker_threads';
import t from 'tap';
import {installRoot} from '../files/install-root.js';
import {checkNoLeaks} from './leak-check.js';
import {tempDir} from './temp-dir.js';

// scripts/tap.sh loads scripts/tap-preload.mjs before tap's process tracker, which tap adds to every test file: without
// it, every test file loads the tracker's modules, and every module it imports crosses to a module-loader thread and back.
t.test('a test file runs without tap\'s process tracker', async t => {
	t.equal((globalThis as Record<symbol, unknown>)[Symbol.for('@tapjs/processinfo.ProcessInfoNodeData')], undefined, 'the tracker never started');
	t.match(process.execArgv.join(' '), /@tapjs\/processinfo\/dist\/esm\/import\.mjs/, 'though tap asked for it');
});

t.test('a test file loads its modules on its own thread: no module-loader thread was registered', async t => {
	const report = process.report.getReport() as {workers: unknown[]};
	t.equal(report.workers.length, 0, 'no worker thread (the tracker\'s hooks thread would be one)');
});

t.test('the test file\'s modules are compiled through a compile cache in the run\'s own temporary folder', async t => {
	const dir = module.getCompileCacheDir();
	t.ok(dir?.startsWith(`${tmpdir()}/`), `the compile cache is ${dir ?? 'off'}`);
});

t.test('a test file\'s children start without the preload and without the tracker, as a user\'s processes would', async t => {
	checkNoLeaks(t);
	const show = 'process.stdout.write(process.env.NODE_OPTIONS ?? "")';
	t.equal(execFileSync(process.execPath, ['-e', show], {encoding: 'utf8'}), '', 'from the file\'s own thread');
	// An attempt run in the test file's process starts its tool commands and graders from worker threads.
	const fromThread = `require('node:worker_threads').parentPort.postMessage(require('node:child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(show)}], {encoding: 'utf8'}))`;
	const options = await new Promise(resolve => new Worker(fromThread, {eval: true}).once('message', resolve));
	t.equal(options, '', 'from a worker thread');
});

t.test('a test file\'s process records its CPU as it exits, with that of the processes it waited for, and only it', async t => {
	checkNoLeaks(t);
	const dir = await tempDir(t, 'hlab-test-cpu-');
	const record = join(dir, 'cpu.tsv');
	const preload = `--import=${join(installRoot, 'scripts', 'tap-preload.mjs')}`;
	// The probe waits for a child that is a test file too, with the preload, and spins until it has used 300 ms of CPU
	// (not of wall time: on a busy machine it shares a core). The child's CPU is the probe's children's, counted once.
	const spin = 'const used = () => { const {user, system} = process.cpuUsage(); return user + system; }; while (used() < 300_000);\n';
	const probe = `import {execFileSync} from 'node:child_process';\nexecFileSync(process.execPath, [${JSON.stringify(preload)}, 'spin.test.js']);\n`;
	await Promise.all([writeFile(join(dir, 'spin.test.js'), spin), writeFile(join(dir, 'spin.js'), spin), writeFile(join(dir, 'probe.test.js'), probe)]);
	for (const name of ['probe.test.js', 'spin.js']) execFileSync(process.execPath, [preload, name], {cwd: dir, env: {...process.env, HLAB_TEST_CPU: record}});
	const lines = (await readFile(record, 'utf8')).trimEnd().split('\n');
	t.equal(lines.length, 1, 'one line: the test file started with the record named; not its child, nor a file that is no test');
	const [total, own, file] = lines[0]!.split('\t');
	t.equal(file, 'probe.test.js', 'named relative to where it ran');
	t.ok(Number(total) - Number(own) >= 250, `the waited-for child's 300 ms are counted apart from the file's own (${own} of ${total} ms)`);
});
