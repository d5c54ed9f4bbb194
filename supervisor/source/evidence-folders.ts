import {dirname} from 'node:path/posix';

/** A folder of the checkout that readCheckoutState leaves out of the source, and why. */
export interface LeftOut {
	/** The folder, relative to the checkout's top, ending in `/`. */
	path: string;
	why: 'evidence' | 'repository';
	/** How many untracked files it held (0 for a repository of its own, which git lists as one entry). */
	files: number;
}

/** The files that mark a folder as something hlab wrote, not source: an attempt's evidence or a pair's folder. */
function isEvidence(folder: string, names: Set<string>): boolean {
	const has = (name: string): boolean => names.has(folder === '.' ? name : `${folder}/${name}`);
	return (has('plan.json') && (has('attempt.json') || has('ledger.jsonl'))) || (has('pair.json') && has('inputs/plan.json'));
}

/** Every folder holding an untracked file, from the top down. */
function foldersOf(names: string[]): string[] {
	const folders = new Set<string>();
	for (const name of names) {
		for (let folder = dirname(name); folder !== '.' && !folders.has(folder); folder = dirname(folder)) folders.add(folder);
	}
	return [...folders].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

/**
 * Splits git's untracked names into source and what is left out: evidence folders (an attempt's or a pair's,
 * outermost first, with everything inside) and nested repositories (git names them `dir/`, and they are not files).
 */
export function leaveOutEvidence(names: string[]): {source: string[]; leftOut: LeftOut[]} {
	const set = new Set(names);
	const evidence: string[] = [];
	for (const folder of foldersOf(names)) {
		if (evidence.some(outer => folder.startsWith(`${outer}/`))) continue;
		if (isEvidence(folder, set)) evidence.push(folder);
	}
	const inside = (name: string): string | undefined => evidence.find(folder => name.startsWith(`${folder}/`));
	const leftOut: LeftOut[] = evidence.map(folder => ({path: `${folder}/`, why: 'evidence', files: names.filter(name => name.startsWith(`${folder}/`)).length}));
	const source: string[] = [];
	for (const name of names) {
		if (inside(name) !== undefined) continue;
		if (name.endsWith('/')) leftOut.push({path: name, why: 'repository', files: 0});
		else source.push(name);
	}
	return {source, leftOut};
}

/** One line for stderr naming what was left out, or null when nothing was. */
export function describeLeftOut(leftOut: LeftOut[]): string | null {
	if (leftOut.length === 0) return null;
	const parts = leftOut.map(entry => entry.why === 'evidence' ? `${entry.path} (evidence, ${entry.files} files)` : `${entry.path} (a git repository of its own)`);
	return `left out of the source: ${parts.join(', ')}`;
}
