import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import type {CollectorInput} from 'hlab/sdk';

/** The note as it is in the workspace after the run (null when there is none): a fact, not the agent's claim. */
export function collect_note({runtime}: CollectorInput): Record<string, unknown> {
	const file = join(runtime.project_root, 'note.txt');
	return {note: existsSync(file) ? readFileSync(file, 'utf8').trim() : null};
}
