import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import type {Test} from 'tap';
import type {ControllerIdentity} from '../../../controller-protocol/index.js';
import {pinIdentity} from '../../../supervisor/controller/index.js';
import {tempDir} from '../../temp-dir.js';

/** The fixture controllers stay in the source tree (they are plain .mjs, not compiled). */
export const fixtureDir = fileURLToPath(new URL('../../../../test/fixtures/controllers/', import.meta.url));

/** A fresh directory removed when the test ends. */
export const scratch = (t: Test): Promise<string> => tempDir(t, 'hlab-controller-test-');

/** Pins `node fixture.mjs ...args` with the helper module every fixture imports, and any extra files. */
export function pinFixture(name: string, args: string[] = [], extraFiles: string[] = []): Promise<ControllerIdentity> {
	return pinIdentity([process.execPath, join(fixtureDir, name), ...args], [join(fixtureDir, 'read-request.mjs'), ...extraFiles]);
}

/** A controller that answers with exactly `text` (and then exits with `status`), pinned with its data file. */
export async function answering(dir: string, text: string | Uint8Array, status = 0): Promise<ControllerIdentity> {
	const file = join(dir, `answer-${Math.random().toString(36).slice(2)}.json`);
	await writeFile(file, text);
	return pinFixture('answer-file.mjs', [file, String(status)]);
}
