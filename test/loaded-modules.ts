import {readFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {pathToFileURL} from 'node:url';
import {installRoot} from '../files/install-root.js';
import {runInGroup} from '../process/index.js';

const bin = join(installRoot, 'bin', 'hlab.js');

/** Every module a chunk of the bundle inlined, by chunk URL, from the bundle's `inputs.json` (scripts/bundle.mjs). */
function inlinedByChunk(): Map<string, string[]> {
	const chunkOf = JSON.parse(readFileSync(join(installRoot, 'dist', 'bundle', 'inputs.json'), 'utf8')) as Record<string, string>;
	const inlined = new Map<string, string[]>();
	for (const [input, chunk] of Object.entries(chunkOf)) {
		const url = pathToFileURL(resolve(installRoot, chunk)).href;
		inlined.set(url, [...inlined.get(url) ?? [], pathToFileURL(resolve(installRoot, input)).href]);
	}
	return inlined;
}

/**
 * The file: modules a run of `hlab ARGS` loads (its main thread), through a module hook that lists them on exit; a chunk
 * of the bundle stands for the modules it inlined, so the list reads the same bundled or not.
 */
export async function modulesLoadedBy(args: string[], input?: string): Promise<{urls: string[]; exitCode: number | null; stderr: string}> {
	const hook = 'import {registerHooks} from "node:module"; const seen = []; registerHooks({load(url, context, next) { seen.push(url); return next(url, context); }}); process.on("exit", () => process.stderr.write("MODULES " + JSON.stringify(seen) + "\\n"));';
	const run = await runInGroup({argv: [process.execPath, '--import', `data:text/javascript,${encodeURIComponent(hook)}`, bin, ...args], input, deadlineMs: 60_000});
	const lines = run.stderr!.toString().split('\n');
	const list = lines.find(text => text.startsWith('MODULES '));
	if (list === undefined) throw new Error(`no module list: ${run.stderr!.toString()}`);
	const inlined = inlinedByChunk();
	const urls = (JSON.parse(list.slice('MODULES '.length)) as string[]).filter(url => url.startsWith('file:')).flatMap(url => inlined.get(url) ?? [url]);
	return {urls, exitCode: run.record.exit_code, stderr: lines.filter(text => !text.startsWith('MODULES ')).join('\n')};
}

/** The packages among module URLs (`zod`, `@scope/name`). */
export function packagesOf(urls: string[]): string[] {
	return [...new Set(urls.flatMap(url => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []))].sort();
}
