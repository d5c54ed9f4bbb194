import {readFileSync, realpathSync} from 'node:fs';
import {cpus, release, totalmem, version} from 'node:os';
import {sep} from 'node:path';
import {z} from 'zod';
import {toolVersions} from '../../plan/tool-versions.js';

/** The machine an attempt ran on, as far as its timings and its tasks' tools depend on it. Unknown is null. */
export const Machine = z.object({
	cpu_model: z.string().nullable(),
	cpu_count: z.number().int().nonnegative(),
	memory_bytes: z.number().int().nonnegative(),
	kernel: z.object({release: z.string(), version: z.string()}),
	/** The file system type of the evidence directory (from /proc/self/mountinfo); null where that cannot be read. */
	evidence_fs: z.string().nullable(),
	/** Version lines of the external programs tasks use; null when one cannot be started. */
	programs: z.object({git: z.string().nullable(), bash: z.string().nullable(), node: z.string()}),
});
export type Machine = z.infer<typeof Machine>;

/** Measures the machine for `attempt.json`; the evidence directory must exist. */
export async function measureMachine(evidenceDir: string): Promise<Machine> {
	const found = cpus();
	const versions = await toolVersions(['git', 'bash']);
	return {
		cpu_model: found[0]?.model.trim() || null,
		cpu_count: found.length,
		memory_bytes: totalmem(),
		kernel: {release: release(), version: version()},
		evidence_fs: fileSystemOf(evidenceDir),
		programs: {git: versions['git'] ?? null, bash: versions['bash'] ?? null, node: process.version},
	};
}

/** The type of the mount holding `path`: the mountinfo line with the longest mount point that contains it (the last one mounted wins a tie). */
export function fileSystemOf(path: string, mountinfo = readMountinfo()): string | null {
	if (mountinfo === null) return null;
	let real: string;
	try {
		real = realpathSync(path);
	} catch {
		return null;
	}
	let best: {point: string; type: string} | null = null;
	for (const line of mountinfo.split('\n')) {
		const mount = parseMountLine(line);
		if (mount === null || !contains(mount.point, real)) continue;
		if (best === null || mount.point.length >= best.point.length) best = mount;
	}
	return best?.type ?? null;
}

function readMountinfo(): string | null {
	try {
		return readFileSync('/proc/self/mountinfo', 'utf8');
	} catch {
		return null;
	}
}

/** Field 5 is the mount point (octal escapes for spaces and the like); the type follows the ` - ` separator. */
function parseMountLine(line: string): {point: string; type: string} | null {
	const [before, after] = line.split(' - ');
	const point = before?.split(' ')[4];
	const type = after?.split(' ')[0];
	if (point === undefined || type === undefined || type === '') return null;
	return {point: point.replace(/\\([0-7]{3})/g, (_match, code: string) => String.fromCharCode(Number.parseInt(code, 8))), type};
}

function contains(point: string, path: string): boolean {
	return point === '/' || path === point || path.startsWith(point.endsWith(sep) ? point : `${point}${sep}`);
}
