import {cp, mkdir, rm, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import type {Test} from 'tap';
import {installRoot} from '../../files/install-root.js';
import {tempDir} from '../temp-dir.js';

export const examplesDir = join(installRoot, 'examples', 'cartridges');

/** A copy of an example cartridge in a temporary folder, with files replaced (text) or removed (null). */
export async function copyCartridge(t: Test, name: string, changes: Record<string, string | null> = {}): Promise<string> {
	const dir = join(await tempDir(t, 'hlab-cartridge-'), `${name}.cartridge`);
	await cp(join(examplesDir, `${name}.cartridge`), dir, {recursive: true});
	for (const [path, text] of Object.entries(changes)) {
		if (text === null) {
			await rm(join(dir, path), {recursive: true, force: true});
			continue;
		}
		await mkdir(dirname(join(dir, path)), {recursive: true});
		await writeFile(join(dir, path), text);
	}
	return dir;
}

/** The report agent's tool with profit = revenue + cost: it writes the wrong file and claims the right profit. */
export const brokenPublishReport = `import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {ToolContext} from 'harness-lab/sdk';

export function execute(context: ToolContext, args: {revenue: number; cost: number}): object {
	const report = {revenue: args.revenue, cost: args.cost, profit: args.revenue + args.cost};
	writeFileSync(join(context.resources.project_dir as string, 'report.json'), JSON.stringify(report));
	return {written: 'report.json', profit: args.revenue - args.cost};
}
`;
