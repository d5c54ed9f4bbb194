import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {checkRuntimeSpace, freeBytes} from '../../../../supervisor/attempt/task-core/runtime-space.js';
import {tempDir} from '../../../temp-dir.js';

t.test('task folders on one file system share one reading of its free space: one statfs serves the tasks starting together', async t => {
	const dir = await tempDir(t);
	const folders = await Promise.all(['001-a', '002-b', '003-c'].map(async name => {
		await mkdir(join(dir, name, 'runtime'), {recursive: true});
		return join(dir, name, 'runtime');
	}));
	const [first, ...others] = folders.map(freeBytes);
	for (const other of others) t.equal(other, first, 'the same reading, not one more');
	t.ok((await first!)! > 0, 'a real reading: the bytes free there');
});

t.test('a folder on another file system gets a reading of its own', async t => {
	const dir = await tempDir(t);
	// /proc is a file system of its own wherever the temporary folder is.
	t.not(freeBytes('/proc'), freeBytes(dir));
	t.equal(await freeBytes('/proc'), 0, 'its own reading: /proc has no room at all');
});

t.test('a runtime root with less room than one workspace refuses the task, naming the root and both sizes', async t => {
	const dir = await tempDir(t);
	t.equal(await checkRuntimeSpace(dir, 1), null);
	t.match(await checkRuntimeSpace(dir, 1024 ** 5), {reason: 'runtime_space', message: new RegExp(`^not started: the runtime root ${dir} has \\d+ bytes free, less than the 1125899906842624 bytes`)});
});
