import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {installRoot} from '../files/install-root.js';
import {runInGroup} from '../process/index.js';

/**
 * `call`, an expression over the exports (`m`) of the compiled `module` (a path under dist/), run in a new Node process
 * whose cache folder is `cacheHome`, as the next hlab process would run it: its exit status, its stderr and the JSON of
 * what the expression gave (null when it failed).
 */
export async function inNewProcess(module: string, call: string, cacheHome: string): Promise<{code: number | null; stderr: string; value: unknown}> {
	const url = pathToFileURL(join(installRoot, 'dist', module)).href;
	const script = `const m = await import(${JSON.stringify(url)}); process.stdout.write(JSON.stringify(await ${call}));`;
	const run = await runInGroup({argv: [process.execPath, '--input-type=module', '-e', script], env: {XDG_CACHE_HOME: cacheHome}, deadlineMs: 60_000});
	const stdout = run.stdout?.toString() ?? '';
	return {code: run.record.exit_code, stderr: run.stderr?.toString() ?? '', value: run.record.exit_code === 0 ? JSON.parse(stdout) as unknown : null};
}
