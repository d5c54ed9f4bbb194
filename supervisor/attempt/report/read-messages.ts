import {readIfPresent} from '../../../files/read-if-present.js';

/** The execution's transcript as recorded, one object per line; a missing file is an empty transcript. */
export async function readMessages(path: string): Promise<Array<Record<string, unknown>>> {
	const text = await readIfPresent(path) ?? '';
	return text.split('\n').filter(line => line.trim() !== '').map(line => JSON.parse(line) as Record<string, unknown>);
}
