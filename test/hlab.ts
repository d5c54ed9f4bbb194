import path from 'node:path';
import {runInGroup, type GroupRun} from '../process/index.js';

const bin = path.resolve(import.meta.dirname, '../../bin/hlab.js');

/** Runs the real `hlab` command line, supervised, with text output. */
export async function hlab(args: string[], options: {cwd?: string; env?: Record<string, string>; timeoutMs?: number} = {}): Promise<{record: GroupRun['record']; stdout: string; stderr: string}> {
	const run = await runInGroup({argv: [process.execPath, bin, ...args], cwd: options.cwd, env: options.env, deadlineMs: options.timeoutMs ?? 120_000});
	return {record: run.record, stdout: run.stdout?.toString() ?? '', stderr: run.stderr?.toString() ?? ''};
}
