import {readlinkSync} from 'node:fs';
import {resolve} from 'node:path';
import {listPids, readArgv} from '../../process/proc-table.js';

// The flags by which hlab commands name where their evidence goes.
const outputFlags = ['--artifacts', '--out', '--output'];

/**
 * The folders live processes were told to write evidence into (`--artifacts DIR`, `--out DIR`, resolved against each
 * one's working directory): the attempts there name their runtime roots, wherever the user ran them from.
 */
export function liveOutputDirs(): string[] {
	const dirs = new Set<string>();
	for (const pid of listPids()) {
		if (pid === process.pid) continue;
		const argv = readArgv(pid) ?? [];
		const named = argv.flatMap((arg, index) => {
			const flag = outputFlags.find(name => arg === name || arg.startsWith(`${name}=`));
			if (flag === undefined) return [];
			const value = arg === flag ? argv[index + 1] : arg.slice(flag.length + 1);
			return value === undefined ? [] : [value];
		});
		if (named.length === 0) continue;
		const cwd = workingDir(pid);
		if (cwd !== null) for (const value of named) dirs.add(resolve(cwd, value));
	}
	return [...dirs];
}

function workingDir(pid: number): string | null {
	try {
		return readlinkSync(`/proc/${pid}/cwd`);
	} catch {
		return null;
	}
}
