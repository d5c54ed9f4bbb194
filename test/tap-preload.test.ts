import {execFileSync} from 'node:child_process';
import module from 'node:module';
import {tmpdir} from 'node:os';
import t from 'tap';
import {checkNoLeaks} from './leak-check.js';

// scripts/tap.sh loads scripts/tap-preload.mjs before tap's process tracker: without it, every module a test file
// imports crosses to a module-loader thread and back, and is compiled again in every file (bench/README.md).
t.test('a test file loads its modules on its own thread: the tracker registered no module-loader thread', async t => {
	const report = process.report.getReport() as {workers: unknown[]};
	t.equal(report.workers.length, 0, 'no worker thread (the tracker\'s hooks thread would be one)');
});

t.test('module.register is Node\'s own again once the tracker has been turned away', async t => {
	t.equal(module.register.name, 'register');
});

t.test('the test file\'s modules are compiled through a compile cache in the run\'s own temporary folder', async t => {
	const dir = module.getCompileCacheDir();
	t.ok(dir?.startsWith(`${tmpdir()}/`), `the compile cache is ${dir ?? 'off'}`);
});

t.test('a test file\'s children start without the preload and without the tracker, as a user\'s processes would', async t => {
	checkNoLeaks(t);
	const options = execFileSync(process.execPath, ['-e', 'process.stdout.write(process.env.NODE_OPTIONS ?? "")'], {encoding: 'utf8'});
	t.equal(options, '');
});
