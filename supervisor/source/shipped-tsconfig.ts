import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {z} from 'zod';
import {jsonOrNull} from '../../files/json-or-null.js';

const TsConfig = z.object({
	include: z.array(z.string()),
	compilerOptions: z.object({typeRoots: z.array(z.string()).optional()}).loose().optional(),
}).loose();

/**
 * Writes `dir/tsconfig.json`, a config that extends the checkout's and includes only the
 * folders the package ships: those of its `include` whose `dist/` form `packageFiles` (package.json's `files`) does not
 * exclude (`!dist/test`). Returns its path; null when the checkout's tsconfig is not plain JSON with an `include` list
 * (a changed checkout may write comments in it), and then the checkout's own config is the one to compile with.
 */
export async function writeShippedTsconfig(root: string, packageFiles: string[], dir: string): Promise<string | null> {
	const base = join(root, 'tsconfig.json');
	const parsed = TsConfig.safeParse(jsonOrNull(await readFile(base, 'utf8')));
	if (!parsed.success) return null;
	const {include, compilerOptions} = parsed.data;
	const unshipped = new Set(packageFiles.filter(entry => /^!dist\/[^/*]+$/.test(entry)).map(entry => entry.slice('!dist/'.length)));
	const config = join(dir, 'tsconfig.json');
	// include is relative to the file naming it, so the shipped folders are named by absolute path; and the default
	// typeRoots are looked for from the folder of the config, so the checkout's are named unless it names its own.
	const options = compilerOptions?.typeRoots === undefined ? {typeRoots: [join(root, 'node_modules', '@types')]} : {};
	const shipped = include.filter(folder => !unshipped.has(folder)).map(folder => join(root, folder));
	await writeFile(config, JSON.stringify({extends: base, compilerOptions: options, include: shipped}));
	return config;
}

