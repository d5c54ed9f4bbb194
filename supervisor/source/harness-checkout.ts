import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {z} from 'zod';
import {checkoutRoot, SourceError} from './git.js';

const PackageJson = z.object({bin: z.record(z.string(), z.string()).optional()}).loose();

/** Whether the folder is the top of harness-lab's own source: its package.json gives the `hlab` command. */
async function holdsHarnessLab(root: string): Promise<boolean> {
	try {
		const parsed = PackageJson.safeParse(JSON.parse(await readFile(join(root, 'package.json'), 'utf8')));
		return parsed.success && parsed.data.bin?.['hlab'] !== undefined;
	} catch {
		return false;
	}
}

/**
 * The top of the harness-lab checkout holding `dir`. A user's own git project is refused by name: snapshot-source
 * and build-host archive and rebuild harness-lab's source, and another project's tree is not that.
 */
export async function harnessCheckoutRoot(dir: string): Promise<string> {
	const root = await checkoutRoot(dir);
	if (await holdsHarnessLab(root)) return root;
	throw new SourceError('not_a_checkout', `${dir} is inside the git checkout ${root}, which is not a harness-lab checkout (its package.json gives no hlab command); snapshot-source and build-host archive and build harness-lab's own source`);
}
