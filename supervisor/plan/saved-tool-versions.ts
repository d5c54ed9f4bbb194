import {accessSync, closeSync, constants, mkdirSync, openSync, readFileSync, readSync, realpathSync, statSync} from 'node:fs';
import {basename, delimiter, isAbsolute, join, resolve} from 'node:path';
import {z} from 'zod';
import {digestCacheDir} from '../../files/digest-cache.js';
import {settledStamp} from '../../files/file-digest.js';
import {writeJsonSync} from '../../files/write-json.js';

/**
 * `tool-versions.json` beside the file digests (digest-cache.ts): a tool's version line by the binary that answered, so
 * an attempt does not start `git --version` and `bash --version` again while neither binary changed (each a supervised
 * process group: two forks of the supervisor and two execs). Only a native executable whose real file carries the
 * tool's own name is kept: a script's answer, or a version manager's shim (one binary that picks a version by its
 * configuration), depends on more than the bytes a stamp stands for.
 */
const SavedVersions = z.object({schema: z.literal('harness-lab/tool-versions@1'), entries: z.record(z.string(), z.string())});
/** A few machines' worth of tools, newest kept. */
const savedKept = 32;
/** The variables that can translate a version line. */
const localeVariables = ['LANGUAGE', 'LC_ALL', 'LC_MESSAGES', 'LANG'];

export function savedVersionsPath(): string {
	return join(digestCacheDir(), 'tool-versions.json');
}

/**
 * What a tool's answer is kept under: the name, the executable the PATH gives for it, the settled stamp of its real
 * file, and the locale; null when its answer must be asked every time (not found, a script, a shim, not settled).
 */
export function versionKey(tool: string, env: NodeJS.ProcessEnv = process.env): string | null {
	const found = findOnPath(tool, env.PATH ?? '');
	if (found === null) return null;
	let real: string;
	try {
		real = realpathSync(found);
	} catch {
		return null;
	}
	if (basename(real) !== basename(tool) || !isNativeExecutable(real)) return null;
	const stamp = settledStamp(real);
	return stamp === null ? null : JSON.stringify([tool, found, real, stamp, localeVariables.map(name => env[name] ?? null)]);
}

export function saveVersion(key: string, version: string): void {
	try {
		// Read again: another process may have saved since this one read.
		const entries = savedVersions();
		delete entries[key];
		entries[key] = version;
		mkdirSync(digestCacheDir(), {recursive: true, mode: 0o700});
		writeJsonSync(savedVersionsPath(), {schema: 'harness-lab/tool-versions@1', entries: Object.fromEntries(Object.entries(entries).slice(-savedKept))}, {atomic: true});
	} catch {
		// A version that cannot be saved is asked again next time.
	}
}

/** Every saved version line by its key. */
export function savedVersions(): Record<string, string> {
	try {
		return SavedVersions.parse(JSON.parse(readFileSync(savedVersionsPath(), 'utf8'))).entries;
	} catch {
		// Missing, unreadable or from another version: every tool is asked; the next save replaces the file.
		return {};
	}
}

/** The file a spawn of `tool` runs: a path as given, else the first executable regular file of that name on PATH. */
function findOnPath(tool: string, path: string): string | null {
	if (tool.includes('/')) return resolve(tool);
	for (const dir of path.split(delimiter)) {
		// An empty or relative entry is looked up from the working directory: a tool found past one is asked every time.
		if (!isAbsolute(dir)) return null;
		const candidate = join(dir, tool);
		try {
			accessSync(candidate, constants.X_OK);
			if (statSync(candidate).isFile()) return candidate;
		} catch {
			// Not here: the next entry, as a spawn looks.
		}
	}
	return null;
}

/** An ELF file, not a script run by an interpreter. */
function isNativeExecutable(path: string): boolean {
	const head = Buffer.alloc(4);
	let fd: number | null = null;
	try {
		fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
		return readSync(fd, head, 0, 4, 0) === 4 && head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
	} catch {
		return false;
	} finally {
		if (fd !== null) closeSync(fd);
	}
}
