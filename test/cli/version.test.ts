import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

t.test('hlab --version prints the installed package\'s version and exits 0', async t => {
	const {version} = JSON.parse(await readFile(join(installRoot, 'package.json'), 'utf8')) as {version: string};
	for (const flag of ['--version', '-V']) {
		const run = await hlab([flag]);
		t.equal(run.record.exit_code, 0, run.stderr);
		t.equal(run.stdout, `${version}\n`, flag);
	}
});

t.test('the supervisor\'s internal host-worker is not offered in hlab --help, and still answers its own --help', async t => {
	const help = await hlab(['--help']);
	t.equal(help.record.exit_code, 0);
	t.match(help.stdout, /^ {2}eval \[options\]/m, 'the commands people run are listed');
	t.notMatch(help.stdout, /host-worker/, 'host-worker is not');
	const own = await hlab(['host-worker', '--help']);
	t.equal(own.record.exit_code, 0, own.stderr);
	t.match(own.stdout, /serve one host-worker request/);
});
