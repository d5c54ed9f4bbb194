import t from 'tap';
import {fileSystemOf} from '../../../../supervisor/attempt/stages/measure-machine.js';
import {tempDir} from '../../../temp-dir.js';

const mountinfo = (dir: string): string => [
	'22 27 0:21 / /proc rw,relatime - proc proc rw',
	'27 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
	`40 27 0:50 / ${dir.replaceAll(' ', '\\040')} rw - tmpfs tmpfs rw`,
	`41 27 0:51 / ${dir.replaceAll(' ', '\\040')}-sibling rw - xfs /dev/vdb rw`,
].join('\n');

t.test('the longest mount point that holds the path names its file system', async t => {
	const dir = await tempDir(t, 'hlab machine ');
	t.equal(fileSystemOf(dir, mountinfo(dir)), 'tmpfs', 'the folder is its own mount (its name has a space, escaped as \\040)');
	t.equal(fileSystemOf('/', mountinfo(dir)), 'ext4');
	t.equal(fileSystemOf(dir, mountinfo(dir.slice(0, -1))), 'ext4', 'a mount point that only starts like the path does not hold it');
	t.equal(fileSystemOf(dir, null), null, 'unknown without mountinfo');
	t.equal(fileSystemOf(`${dir}/missing`, mountinfo(dir)), null, 'unknown for a path that does not exist');
});
