import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {ControllerIdentity} from '../../controller-protocol/index.js';
import {buildSampleController, verifyIdentityFiles} from '../../supervisor/controller/index.js';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {fixtureDir, scratch} from '../supervisor/controller/fixtures.js';

checkNoLeaks(t);

const command = new URL('../../cli/controller.js', import.meta.url).href;
/** Runs `hlab controller ...args` through the command's registration, in a process of its own. */
const hlabController = (...args: string[]) => runInGroup({argv: [process.execPath, join(fixtureDir, 'run-controller-cli.mjs'), command, 'controller', ...args], deadlineMs: 60_000});

t.test('hlab controller build --out DIR writes the bundle and its identity, and prints the identity', async t => {
	const dir = await scratch(t);
	const run = await hlabController('build', '--out', join(dir, 'out'));
	t.equal(run.record.exit_code, 0, `exits 0 ${run.stderr?.toString() ?? ''}`);
	const printed = ControllerIdentity.parse(JSON.parse(run.stdout!.toString('utf8')));
	t.same(JSON.parse(await readFile(join(dir, 'out', 'controller.json'), 'utf8')), printed);
	t.same(printed.command, [process.execPath, join(dir, 'out', 'experiment-controller.mjs')]);

	const fresh = await hlabController('verify', join(dir, 'out', 'controller.json'));
	t.equal(fresh.record.exit_code, 0, `verify accepts the fresh build ${fresh.stderr?.toString() ?? ''}`);
	await writeFile(join(dir, 'out', 'experiment-controller.mjs'), '// edited\n', {flag: 'a'});
	const changed = await hlabController('verify', join(dir, 'out', 'controller.json'));
	t.equal(changed.record.exit_code, 1, 'verify fails once the bundle is edited');
	t.match(changed.stderr?.toString(), /digest_mismatch: .*experiment-controller\.mjs/);
});

t.test('building twice gives the same bytes, wherever it is run from', async t => {
	const dir = await scratch(t);
	const first = await buildSampleController(join(dir, 'one'));
	const previous = process.cwd();
	process.chdir(dir);
	try {
		const second = await buildSampleController('two');
		t.same(Object.values(second.files).sort(), Object.values(first.files).sort());
		t.equal(second.command[1], join(dir, 'two', 'experiment-controller.mjs'), 'a relative --out still pins an absolute path');
		t.same(await verifyIdentityFiles(second), []);
	} finally {
		process.chdir(previous);
	}
});
