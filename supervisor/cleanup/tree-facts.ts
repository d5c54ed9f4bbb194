import {lstatSync, readdirSync} from 'node:fs';
import {join} from 'node:path';

/** A tree's room on disk (allocated blocks, so a sparse file counts what it takes) and its newest change. */
export interface TreeFacts {
	bytes: number;
	newestMs: number;
}

/** Walks the tree without following links; what vanishes or cannot be read meanwhile is left out. */
export function treeFacts(path: string): TreeFacts {
	const facts: TreeFacts = {bytes: 0, newestMs: 0};
	const visit = (entry: string): void => {
		let stat;
		try {
			stat = lstatSync(entry);
		} catch {
			return;
		}
		facts.bytes += stat.blocks * 512;
		facts.newestMs = Math.max(facts.newestMs, stat.mtimeMs, stat.ctimeMs);
		if (!stat.isDirectory()) return;
		let names: string[] = [];
		try {
			names = readdirSync(entry);
		} catch {
			return;
		}
		for (const name of names) visit(join(entry, name));
	};
	visit(path);
	return facts;
}
