import t from 'tap';
import {spawnSync} from 'node:child_process';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {checkNoLeaks} from './leak-check.js';

checkNoLeaks(t);

t.test('a test file that leaves a process behind fails', async t => {
	const dir = await mkdtemp(path.join(tmpdir(), 'hlab-leak-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	const file = path.join(dir, 'leaky.test.mjs');
	const helper = path.resolve(import.meta.dirname, 'leak-check.js');
	await writeFile(file, [
		`import t from ${JSON.stringify(import.meta.resolve('tap'))};`,
		`import {spawn} from 'node:child_process';`,
		`import {checkNoLeaks} from ${JSON.stringify(helper)};`,
		`checkNoLeaks(t);`,
		`t.test('leaks', async t => { spawn('sleep', ['300'], {detached: true, stdio: 'ignore'}).unref(); t.pass(); });`,
	].join('\n'));
	const result = spawnSync(process.execPath, [file], {encoding: 'utf8', cwd: path.resolve(import.meta.dirname, '../..')});
	t.not(result.status, 0, 'the leaky file fails');
	t.match(result.stderr, /LEAK: .*sleep/);
});
