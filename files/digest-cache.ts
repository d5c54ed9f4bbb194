import {mkdirSync, readFileSync} from 'node:fs';
import {homedir} from 'node:os';
import {isAbsolute, join} from 'node:path';
import {z} from 'zod';
import {writeJsonSync} from './write-json.js';

/**
 * `$XDG_CACHE_HOME/harness-lab/file-digests.json` (else `~/.cache/harness-lab/`): file digests shared by every hlab
 * process of the user, keyed by a file's stamp (device, inode, size, mtime and ctime in nanoseconds), so a 125 MB
 * Node binary or a 5,000-file build is hashed once, not once per process. Only settled stamps enter (see fileDigest).
 */
const CacheFile = z.object({
	schema: z.literal('harness-lab/file-digests@1'),
	/** Stamp → sha256 hex, oldest first; each value is checked when it is used (checking thousands up front costs more than the cache saves). */
	entries: z.custom<Record<string, unknown>>(value => typeof value === 'object' && value !== null && !Array.isArray(value)),
});

/**
 * A checkout takes ~90 entries (its task files, the Node binary, one per package and one for its build; the deciding
 * code's graph keeps its files' stamps in its own file, module-graph.ts), a suite's task files one each: a few
 * checkouts and a suite of ~1,000 tasks fit. Every hlab process parses the whole file (20,000 entries: 2.6 MB, 40–60 ms
 * of its start). Older entries go first.
 */
const maxEntries = 10_000;
const hex = /^[0-9a-f]{64}$/;

/** The user's harness-lab cache folder: `$XDG_CACHE_HOME/harness-lab`, else `~/.cache/harness-lab`. */
export function digestCacheDir(env: NodeJS.ProcessEnv = process.env): string {
	const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
	return join(base, 'harness-lab');
}

export function digestCachePath(env: NodeJS.ProcessEnv = process.env): string {
	return join(digestCacheDir(env), 'file-digests.json');
}

/** The digests of this process, seeded from the cache file once, written back (merged) when the process exits. */
export class DigestCache {
	private entries: Record<string, unknown> | null = null;
	private readonly added = new Map<string, string>();
	/** Entries this process found: kept at the young end when it saves, so one-off builds evict the cold ones first. */
	private readonly used = new Set<string>();
	private saving = false;

	constructor(private readonly path: string, private readonly limit = maxEntries) {}

	get(stamp: string): string | undefined {
		this.entries ??= readEntries(this.path);
		const digest = Object.hasOwn(this.entries, stamp) ? this.entries[stamp] : undefined;
		if (typeof digest !== 'string' || !hex.test(digest)) return undefined;
		this.used.add(stamp);
		return digest;
	}

	set(stamp: string, digest: string): void {
		this.entries ??= readEntries(this.path);
		this.entries[stamp] = digest;
		this.added.set(stamp, digest);
		if (!this.saving) {
			this.saving = true;
			// Synchronous at exit: the digests of one process's work are written once, whatever way it ends normally.
			process.once('exit', () => this.save());
		}
	}

	/** Merges what this process learned into the file as it is now (another process may have written it), atomically. */
	save(): void {
		if (this.added.size === 0) return;
		try {
			const merged = new Map(Object.entries(readEntries(this.path)));
			for (const stamp of this.used) {
				const digest = merged.get(stamp);
				if (digest === undefined) continue;
				merged.delete(stamp);
				merged.set(stamp, digest);
			}
			for (const [stamp, digest] of this.added) {
				merged.delete(stamp);
				merged.set(stamp, digest);
			}
			const kept = [...merged].filter(([, digest]) => typeof digest === 'string' && hex.test(digest)).slice(-this.limit);
			mkdirSync(join(this.path, '..'), {recursive: true, mode: 0o700});
			writeJsonSync(this.path, {schema: 'harness-lab/file-digests@1', entries: Object.fromEntries(kept)}, {atomic: true});
			this.added.clear();
			this.used.clear();
		} catch {
			// A cache that cannot be written only costs the next process a hash.
		}
	}
}

function readEntries(path: string): Record<string, unknown> {
	try {
		return CacheFile.parse(JSON.parse(readFileSync(path, 'utf8'))).entries;
	} catch {
		// Missing, unreadable or from another version: start empty; the next save replaces it.
		return {};
	}
}
