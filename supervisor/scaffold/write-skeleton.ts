import {existsSync, readdirSync, statSync} from 'node:fs';
import {cp} from 'node:fs/promises';
import {dirname, join, resolve} from 'node:path';
import {installRoot} from '../../files/install-root.js';
import {walkTree} from '../../files/walk-tree.js';
import {UsageError} from '../input-error.js';

/** What `hlab init` writes: each a folder of examples/init/, shipped with the package and type-checked in a checkout. */
export const skeletonKinds = ['plugin', 'cartridge', 'controller'] as const;
export type SkeletonKind = (typeof skeletonKinds)[number];

const templates = join(installRoot, 'examples', 'init');

/** Writes the kind's skeleton, README included, into DIR (new, or an empty folder); returns the files written, relative to DIR. */
export async function writeSkeleton(kind: SkeletonKind, dir: string): Promise<string[]> {
	const target = resolve(dir);
	refuseOccupied(target);
	// Never over a file: the folder was empty when looked at, and what appears in it since is kept.
	await cp(join(templates, kind), target, {recursive: true, force: false});
	return (await walkTree(target)).map(file => file.name);
}

/** DIR must be new or an empty folder, under a folder that exists: a skeleton never mixes with someone's files. */
function refuseOccupied(target: string): void {
	if (!existsSync(dirname(target))) throw new UsageError(`${target}: its parent folder ${dirname(target)} does not exist`);
	if (!existsSync(target)) return;
	if (!statSync(target).isDirectory()) throw new UsageError(`${target} exists and is not a folder`);
	const entries = readdirSync(target);
	if (entries.length > 0) throw new UsageError(`${target} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}): give a new or empty folder`);
}
