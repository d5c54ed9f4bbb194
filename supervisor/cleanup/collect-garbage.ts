import {removeTree} from '../../files/remove-tree.js';
import {heldPaths, isHeld} from './held-paths.js';
import {liveOutputDirs} from './live-output-dirs.js';
import {findLeftovers, type Leftover, type LeftoverRoots} from './leftovers.js';
import {runtimeOwners} from './runtime-owners.js';
import {treeFacts} from './tree-facts.js';

export interface GcOptions extends LeftoverRoots {
	/** Evidence folders whose attempts name their runtime roots: a root whose attempt's supervisor runs is kept. */
	evidence: string[];
	/** A temporary or runtime folder changed more recently than this is kept (it may belong to a live run found nowhere else). */
	olderThanMs: number;
	dryRun: boolean;
	now?: number;
}

/** One leftover and what gc did with it: `bytes` is its room on disk, `kept` why it stays (null: removed, or would be). */
export interface GcLine extends Leftover {
	bytes: number;
	kept: string | null;
}

/**
 * Finds hlab's leftovers and removes those nobody can be using: never evidence, never a folder a live process holds
 * (cwd, root, open file), never a runtime root whose attempt's supervisor runs, never a recent temporary folder.
 */
export async function collectGarbage(options: GcOptions): Promise<GcLine[]> {
	// Both where the user keeps evidence and where every live process writes it: a live attempt run from anywhere is found.
	const owners = await runtimeOwners([...options.evidence, ...liveOutputDirs()]);
	const held = heldPaths();
	const now = options.now ?? Date.now();
	return findLeftovers(options).map(leftover => {
		const facts = treeFacts(leftover.path);
		const kept = keptBecause(leftover, facts.newestMs, {owners, held, now, olderThanMs: options.olderThanMs});
		if (kept === null && !options.dryRun) removeTree(leftover.path);
		return {...leftover, bytes: facts.bytes, kept};
	});
}

interface Facts {
	owners: Awaited<ReturnType<typeof runtimeOwners>>;
	held: string[];
	now: number;
	olderThanMs: number;
}

function keptBecause(leftover: Leftover, newestMs: number, facts: Facts): string | null {
	const owner = facts.owners.get(leftover.path);
	if (owner?.live === true) return `its attempt's supervisor runs (${owner.attempt})`;
	if (isHeld(facts.held, leftover.path)) return 'a live process holds it';
	// An owner found dead settles it; any other folder might be a live run's that no evidence here names.
	if (leftover.aged && owner === undefined && facts.now - newestMs < facts.olderThanMs) return `changed ${Math.round((facts.now - newestMs) / 1000)} s ago`;
	return null;
}
