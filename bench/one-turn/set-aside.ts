import {mkdir, rename} from 'node:fs/promises';
import {basename, join} from 'node:path';

/**
 * Moves what a measured run wrote out of the way instead of removing it: the scratch folder goes whole when the bench
 * ends. On an ext4 without a journal (this machine's disk) every file created after a mass removal scans past the
 * inodes just freed (`recently_deleted` in the inode allocator, for 60–300 s), so removing one repetition's thousands of
 * files made the next repetition pay for the bench's own cleanup (bench/README.md, "The evidence disk after a removal").
 */
export async function setAside(scratchDir: string, path: string): Promise<void> {
	const aside = join(scratchDir, '.set-aside');
	await mkdir(aside, {recursive: true});
	await rename(path, join(aside, `${basename(path)}-${Math.random().toString(36).slice(2)}`));
}
