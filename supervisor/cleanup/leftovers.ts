import {lstatSync, readdirSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {agentStoreDir, installDir} from '../../agents/index.js';
import {digestCacheDir} from '../../files/digest-cache.js';
import {installRoot} from '../../files/install-root.js';

/** Something hlab leaves behind that gc may remove, and why it is garbage when nothing holds it. */
export interface Leftover {
	path: string;
	kind: 'temp' | 'runtime' | 'cache' | 'evidence';
	what: string;
	/** Kept while it changed within the age limit: a live run may be using it although nothing says so (a pinned copy about to be linked). */
	aged: boolean;
}

export interface LeftoverRoots {
	env: NodeJS.ProcessEnv;
	/** The shared-memory tmpfs where runtime roots fall back (/dev/shm). */
	shm: string;
	/** Also the agent store's installs that no spec in examples/agents/ pins. */
	agents: boolean;
}

// mkdtemp prefixes of hlab under the temporary folder: hlab-agent-, hlab-snapshot-, hlab-runner-, hlab-queue-node-, hlab-typecheck-, hlab-grade-, hlab-bridge-.
const tempName = /^hlab-[a-z-]+-[A-Za-z0-9]{6}$/;
// A runtime root's folder of one attempt (supervisor/evidence/runtime-root.ts).
const runtimeName = /^hlab-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function findLeftovers(roots: LeftoverRoots): Leftover[] {
	const runtime = [...new Set([roots.env.XDG_RUNTIME_DIR, roots.shm].filter(root => root !== undefined && root !== ''))] as string[];
	return [
		...folders(tmpdir(), tempName).map(path => ({path, kind: 'temp' as const, what: 'temporary folder', aged: true})),
		...runtime.flatMap(root => folders(root, runtimeName).map(path => ({path, kind: 'runtime' as const, what: 'runtime root of an attempt', aged: true}))),
		...cacheEntries(roots),
	];
}

function folders(root: string, name: RegExp): string[] {
	return namesIn(root).filter(entry => name.test(entry) && isFolder(join(root, entry))).map(entry => join(root, entry));
}

function cacheEntries(roots: LeftoverRoots): Leftover[] {
	const cache = digestCacheDir(roots.env);
	// The saved module graphs are a folder; `module-graphs.json` is their file from before. Tools' saved versions too.
	const files = ['file-digests.json', 'module-graphs', 'module-graphs.json', 'tool-versions.json'].map(name => join(cache, name)).filter(exists);
	const pinned = join(cache, 'pinned');
	const store = agentStoreDir(roots.env);
	return [
		...files.map(path => ({path, kind: 'cache' as const, what: 'digest cache (rebuilt on use)', aged: false})),
		// A pinned copy that evidence links to has more than one name: removing the store's name would free nothing.
		...namesIn(pinned).map(name => join(pinned, name)).filter(path => linkCount(path) === 1).map(path => ({path, kind: 'cache' as const, what: 'pinned copy no evidence links to', aged: true})),
		...namesIn(store).filter(name => name.startsWith('.installing-')).map(name => ({path: join(store, name), kind: 'temp' as const, what: 'unfinished agent install', aged: true})),
		...(roots.agents ? unpinnedInstalls(store) : []),
	];
}

/** Installs in the store that no spec in examples/agents/ pins: those stay, so the examples run without the network. */
function unpinnedInstalls(store: string): Leftover[] {
	const pinned = new Set(examplePins().map(pkg => installDir(store, pkg)));
	return namesIn(store).filter(name => !name.startsWith('.')).map(name => join(store, name)).filter(path => isFolder(path) && !pinned.has(path))
		.map(path => ({path, kind: 'cache' as const, what: 'agent install no example pins', aged: false}));
}

function examplePins(): {name: string; version: string}[] {
	const dir = join(installRoot, 'examples', 'agents');
	return namesIn(dir).filter(name => name.endsWith('.json')).flatMap(name => {
		try {
			const pkg = (JSON.parse(readFileSync(join(dir, name), 'utf8')) as {package?: {name?: unknown; version?: unknown} | null}).package;
			return typeof pkg?.name === 'string' && typeof pkg.version === 'string' ? [{name: pkg.name, version: pkg.version}] : [];
		} catch {
			return [];
		}
	});
}

function namesIn(dir: string): string[] {
	try {
		return readdirSync(dir).sort();
	} catch {
		return [];
	}
}

function isFolder(path: string): boolean {
	try {
		return lstatSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** A file or a folder of the cache, never what a link points to. */
function exists(path: string): boolean {
	try {
		const info = lstatSync(path);
		return info.isFile() || info.isDirectory();
	} catch {
		return false;
	}
}

function linkCount(path: string): number {
	try {
		return lstatSync(path).nlink;
	} catch {
		return 0;
	}
}
