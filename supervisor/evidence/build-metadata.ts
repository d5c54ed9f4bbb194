import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {digestFile, digestJson} from '../../files/digest.js';
import {derivedDigest} from '../../files/file-digest.js';
import {stampsKey} from '../../files/stamps-key.js';
import {installRoot} from '../../files/install-root.js';
import {recordedName} from '../plan/source-sets.js';
import {walkTreeSync} from '../../files/walk-tree.js';

const shippedFolders = ['process', 'files', 'controller-protocol', 'sdk', 'harness', 'engine', 'tasks', 'scripted', 'workers', 'supervisor', 'bundle'];

/** Measurements under way, by root: callers that ask at the same moment (the attempt's record, a host session) share one walk. */
const measuring = new Map<string, Promise<{digest: string; files: number}>>();

/** The digest of the compiled code that runs an attempt, and of the tokenizer's table the build wrote beside it, file by file (measured anew by each caller that comes after). */
export function buildDigest(root = installRoot): Promise<{digest: string; files: number}> {
	let measured = measuring.get(root);
	if (measured === undefined) {
		measured = measureBuild(root).finally(() => measuring.delete(root));
		measuring.set(root, measured);
	}
	return measured;
}

/**
 * One digest-cache entry for the whole build, keyed by every file's stamp (stampsKey), not one per file: each build
 * left ~700 entries that every later hlab process parsed, long after the build was gone. A link is stamped by the
 * file it leads to, as it is digested.
 */
async function measureBuild(root: string): Promise<{digest: string; files: number}> {
	const entries = shippedFolders.flatMap(folder => walkTreeSync(join(root, 'dist', folder), {suffixes: ['.js', '.ranks']})).map(file => ({path: file.path, name: recordedName(file.path, root), link: false}));
	const compute = async (): Promise<string> => {
		const files: Record<string, string | null> = {};
		for (const entry of entries) files[entry.name] = await digestFile(entry.path, {remember: false});
		return digestJson(files);
	};
	const key = stampsKey('build', entries);
	const digest = key === null ? await compute() : await derivedDigest(key, compute, () => stampsKey('build', entries) === key);
	return {digest, files: entries.length};
}

/** The checked-out commit when the installation is a git work tree; read from files, no git process needed. */
export async function gitHead(root = installRoot): Promise<string | null> {
	try {
		const head = (await readFile(join(root, '.git', 'HEAD'), 'utf8')).trim();
		if (!head.startsWith('ref: ')) return head;
		const ref = head.slice(5);
		try {
			return (await readFile(join(root, '.git', ref), 'utf8')).trim();
		} catch {
			const packed = await readFile(join(root, '.git', 'packed-refs'), 'utf8');
			return packed.split('\n').find(line => line.endsWith(` ${ref}`))?.split(' ')[0] ?? null;
		}
	} catch {
		return null;
	}
}
