import {TaskResult} from './report-schema.js';

/**
 * The run's results as the schema reads them, or null when one breaks it. Each entry is the schema's reading (its keys,
 * its order), but every part of it that reads the same is the run's own object: at 10,000 tasks a parsed copy
 * of every entry was 7.6 MiB more held during the report stage (bench/README.md), the same text written either way.
 */
export function checkedEntries(results: TaskResult[]): TaskResult[] | null {
	const entries: TaskResult[] = [];
	for (const result of results) {
		const parsed = TaskResult.safeParse(result);
		if (!parsed.success) return null;
		entries.push(sharing(parsed.data, result) as TaskResult);
	}
	return entries;
}

/**
 * `parsed` (a fresh copy, changed in place) with each part that reads the same as `original`'s (the same keys in the
 * same order, the same values, all the way down) replaced by it: the whole of `original` when all of it does. One walk,
 * no text made; a value that is not `===` itself (NaN) only keeps the copy.
 */
function sharing(parsed: unknown, original: unknown): unknown {
	if (!isContainer(parsed) || !isContainer(original) || Array.isArray(parsed) !== Array.isArray(original)) return parsed;
	const into = parsed as Record<string, unknown>;
	const from = original as Record<string, unknown>;
	const keys = Object.keys(into);
	const originalKeys = Object.keys(from);
	let same = keys.length === originalKeys.length;
	keys.forEach((key, index) => {
		into[key] = sharing(into[key], from[key]);
		if (key !== originalKeys[index] || into[key] !== from[key]) same = false;
	});
	return same ? original : parsed;
}

function isContainer(value: unknown): value is object {
	return typeof value === 'object' && value !== null;
}
