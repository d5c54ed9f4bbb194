import {readdirSync, readlinkSync} from 'node:fs';
import {listPids} from '../../process/proc-table.js';

/**
 * Every path a live process other than this one holds: its working directory, its root, each open file descriptor.
 * Read once per run; a folder with any of these inside it is in use, whoever made it.
 */
export function heldPaths(): string[] {
	const held: string[] = [];
	for (const pid of listPids()) {
		if (pid === process.pid) continue;
		for (const link of ['cwd', 'root']) pushLink(held, `/proc/${pid}/${link}`);
		let fds: string[];
		try {
			fds = readdirSync(`/proc/${pid}/fd`);
		} catch {
			// Gone, or not ours to read: its files cannot be seen, so nothing is known held by it.
			continue;
		}
		for (const fd of fds) pushLink(held, `/proc/${pid}/fd/${fd}`);
	}
	return held;
}

function pushLink(held: string[], link: string): void {
	try {
		const target = readlinkSync(link);
		if (target.startsWith('/')) held.push(target.replace(/ \(deleted\)$/, ''));
	} catch {
		// The process ended meanwhile.
	}
}

/** Whether any held path is `folder` or lies inside it. */
export function isHeld(held: string[], folder: string): boolean {
	return held.some(path => path === folder || path.startsWith(`${folder}/`));
}
