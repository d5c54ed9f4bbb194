import {readFile} from 'node:fs/promises';

/** The records of a JSON-lines file; a torn last line (a crash mid-append) is a problem to show, not a reason to drop the rest. */
export async function readJsonl(path: string): Promise<{records: unknown[]; problems: string[]}> {
	const text = await readFile(path, 'utf8');
	const records: unknown[] = [];
	const problems: string[] = [];
	text.split('\n').forEach((line, index) => {
		if (line.trim() === '') return;
		try {
			records.push(JSON.parse(line));
		} catch {
			problems.push(`line ${index + 1} is not JSON (${line.length} characters)`);
		}
	});
	return {records, problems};
}
