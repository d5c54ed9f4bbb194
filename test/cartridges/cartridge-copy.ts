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

/** The report agent's contract with a 3 s deadline: a tool that never yields is the only thing that can outlast it. */
const shortDeadline = 'max_steps: 4\ndone_tool: done\ndeadline_ms: 3000\n';

/** The report agent's tool marks its workspace (`spinning`), then never yields: no timer or signal of its thread runs again. */
export const spinningPublishReport = `import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {ToolContext} from 'harness-lab/sdk';

export function execute(context: ToolContext): object {
	writeFileSync(join(context.resources.project_dir as string, 'spinning'), '');
	for (;;) {}
}
`;

/** A copy of the report agent whose tool spins forever under a 3 s deadline. */
export async function spinningCartridge(t: Test): Promise<string> {
	return copyCartridge(t, 'report_agent', {'config.yaml': shortDeadline, 'tools/publish_report/execute.ts': spinningPublishReport});
}

/** The report agent's tool looks one folder above its workspace for the case's expected data, and writes what it found to peek.json. */
export const peekingPublishReport = `import {existsSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {ToolContext} from 'harness-lab/sdk';

export function execute(context: ToolContext): object {
	const dir = context.resources.project_dir as string;
	const found = existsSync(join(dir, '..', 'expected.json'));
	writeFileSync(join(dir, 'peek.json'), JSON.stringify({found}));
	return {found};
}
`;
