import {appendFile, mkdtemp, readFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {checkNoLeaks} from '../../leak-check.js';
import {identifyHost} from '../../../supervisor/host/index.js';
import {installRoot} from '../../../files/install-root.js';
import {runInGroup} from '../../../process/index.js';
import {buildHost, verifyBuild} from '../../../supervisor/source/index.js';

checkNoLeaks(t);

t.test('build-host makes a self-contained host whose digest covers every file and the node binary', async t => {
	const out = join(await mkdtemp(join(tmpdir(), 'hlab-build-')), 'host');
	const record = await buildHost({root: installRoot, out});
	t.equal(record.launcher, 'hlab');
	t.equal(record.node.path, process.execPath);
	t.match(record.source.commit, /^[0-9a-f]{40}$/);
	for (const name of ['hlab', 'bin/hlab.js', 'package.json', 'dist/cli/main.js', 'dist/workers/task-worker.js', 'node_modules/zod/package.json', 'node_modules/piscina/package.json']) {
		t.ok(name in record.files, `${name} is part of the build`);
	}
	t.ok(Object.keys(record.files).some(name => name.startsWith('tasks/') && name.includes('/files/')), 'task data files are reachable from the build');
	t.notOk(Object.keys(record.files).some(name => name.startsWith('node_modules/typescript/') || name.startsWith('node_modules/tap/')), 'dev packages are not copied');
	t.notOk(Object.keys(record.files).some(name => /^dist\/(test|bench|examples)\//.test(name)), 'the folders the package does not ship are not compiled');
	const launcher = await readFile(join(out, 'hlab'), 'utf8');
	t.ok(launcher.includes(`'${process.execPath}'`), 'the launcher names node by absolute path');

	const check = await verifyBuild(out);
	t.same(check.problems, []);
	t.equal(check.digest, record.digest);
	const help = await runInGroup({argv: [join(out, 'hlab'), '--help'], cwd: tmpdir(), deadlineMs: 60_000});
	t.equal(help.record.exit_code, 0, 'the built host runs from anywhere');
	// Once its files settle (files/file-digest.ts), the build's table is cached whole under their stamps.
	await sleep(2_200);
	t.same(await verifyBuild(out), check, 'settled, the same check');
	t.same(await verifyBuild(out), check, 'and again, from the cache');

	t.test('a changed file of the build changes its identity, whatever the cache holds for the build as it was', async t => {
		await appendFile(join(out, 'dist', 'engine', 'loop', 'system-prompt.js'), '\n// tampered\n');
		await sleep(2_200);
		const after = await verifyBuild(out);
		t.same(after.problems, ['dist/engine/loop/system-prompt.js changed']);
		t.not(after.digest, record.digest);
		const identity = await identifyHost(join(out, 'hlab'));
		t.equal(identity.kind, 'build');
		t.same(identity.problems, after.problems);
	});

	t.test('an existing output is refused', async t => {
		const again = await buildHost({root: installRoot, out}).then(() => null, (error: {reason?: string}) => error);
		t.equal(again?.reason, 'output_exists');
	});
});
