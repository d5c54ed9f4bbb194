import {existsSync, readFileSync, statfsSync} from 'node:fs';
import {mkdtemp, rm} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {evidenceInMemory, makeEvidenceFolder, writeEvidenceFile} from '../../../../supervisor/attempt/task-core/evidence-disk.js';
import {tempDir} from '../../../temp-dir.js';

t.test('evidence on a tmpfs is written synchronously, on a disk through the thread pool; the bytes are the same either way', async t => {
	const shm = await mkdtemp('/dev/shm/hlab-evidence-disk-');
	t.teardown(() => rm(shm, {recursive: true, force: true}));
	const disk = await tempDir(t);
	t.equal(evidenceInMemory(shm), true, '/dev/shm is a tmpfs');
	// The OS temp folder is a disk on the machines this runs on; where it is a tmpfs too, say so rather than fail.
	const diskIsTmpfs = statfsSync(disk).type === 0x01021994;
	t.equal(evidenceInMemory(disk), diskIsTmpfs, `the temp folder ${disk} is ${diskIsTmpfs ? 'a tmpfs' : 'a disk'}`);
	t.equal(evidenceInMemory(join(disk, 'not-made')), false, 'a folder not made yet is taken for a disk');
	for (const [dir, inMemory] of [[shm, true], [disk, false]] as const) {
		await makeEvidenceFolder(join(dir, 'tasks', '001-x'), inMemory);
		await writeEvidenceFile(join(dir, 'tasks', '001-x', 'result.json'), '{"a":1}\n', inMemory);
		t.equal(readFileSync(join(dir, 'tasks', '001-x', 'result.json'), 'utf8'), '{"a":1}\n');
	}
	t.ok(existsSync(join(shm, 'tasks')));
});
