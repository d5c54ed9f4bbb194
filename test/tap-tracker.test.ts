import module from 'node:module';
import t from 'tap';

// scripts/tap.sh loads scripts/tap-tracker-off.mjs before tap's process tracker: without it, every module a test file
// imports crosses to a module-loader thread and back (bench/README.md, the test processes' module hook).
t.test('a test file loads its modules on its own thread: the tracker registered no module-loader thread', async t => {
	const report = process.report.getReport() as {workers: unknown[]};
	t.equal(report.workers.length, 0, 'no worker thread (the tracker\'s hooks thread would be one)');
});

t.test('module.register is Node\'s own again once the tracker has been turned away', async t => {
	t.equal(module.register.name, 'register');
});
