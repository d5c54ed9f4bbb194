import {isAbsolute, join, relative, sep} from 'node:path';
import {digestFile, digestJson} from '../../files/digest.js';
import {installRoot} from '../../files/install-root.js';
import type {SourceSet} from './plan-schema.js';

/** A file's name in a plan: relative to the installation when inside it, so a copied installation digests alike. */
export function recordedName(path: string, root = installRoot): string {
	const rel = relative(root, path);
	return rel.startsWith('..') || isAbsolute(rel) ? path : rel.split(sep).join('/');
}

function onDisk(name: string, root: string): string {
	return isAbsolute(name) ? name : join(root, name);
}

/** Digests every named file (a missing one is recorded as null) and the set as a whole. */
export async function digestSourceSet(paths: string[], root = installRoot): Promise<SourceSet> {
	const files: Record<string, string | null> = {};
	for (const name of [...new Set(paths.map(path => recordedName(path, root)))].sort()) files[name] = await digestFile(onDisk(name, root));
	return {digest: digestJson(files), files};
}

