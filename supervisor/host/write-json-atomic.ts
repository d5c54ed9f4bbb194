import {open, rename} from 'node:fs/promises';

/** Replaces a JSON file so that a reader (or a crash) sees the old or the new version, never a torn one. */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
	const temp = `${path}.${process.pid}.tmp`;
	const handle = await open(temp, 'w');
	try {
		await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`);
		await handle.sync();
	} finally {
		await handle.close();
	}
	await rename(temp, path);
}
