import {existsSync} from 'node:fs';
import {mkdir, rm} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import type {Test} from 'tap';
import {hlab} from '../hlab.js';
import {tempDir} from '../temp-dir.js';

/** A build compiles the checkout and copies its packages: on a loaded machine, minutes at worst. */
const buildTimeoutMs = 300_000;

/**
 * The launcher of a host build of this checkout (`hlab build-host`, as a user runs it), for the tests that run a host
 * candidate and do not test the build itself (test/supervisor/source/build-host.test.ts and test/cli/relative-paths.test.ts do).
 * A build is about 15 s of CPU, so under scripts/tap.sh, whose run has a folder of its own (HLAB_TEST_SHARED), the first
 * file to ask builds it there and the others use it: they only launch it, and each host attempt checks the build is
 * unchanged. Without that folder (a file run alone) a test builds its own, removed when it ends.
 */
export async function hostBuild(t: Test): Promise<string> {
	const shared = process.env.HLAB_TEST_SHARED;
	if (shared === undefined || shared === '') return build(join(await tempDir(t, 'hlab-host-'), 'build'));
	const out = join(shared, 'host-build');
	const lock = `${out}.lock`;
	const deadline = performance.now() + buildTimeoutMs;
	for (;;) {
		// build-host writes build.json last: with it there, the build is whole.
		if (existsSync(join(out, 'build.json'))) return join(out, 'hlab');
		if (await take(lock)) return buildShared(out, lock);
		if (performance.now() > deadline) throw new Error(`no shared host build appeared in ${out} within ${buildTimeoutMs} ms`);
		await sleep(200);
	}
}

/** The lock is a folder: creating it is atomic, so one file builds. */
async function take(lock: string): Promise<boolean> {
	try {
		await mkdir(lock);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw error;
	}
}

/** Builds into the shared folder; a failed build leaves neither it nor the lock, so the next file tries again. */
async function buildShared(out: string, lock: string): Promise<string> {
	try {
		return await build(out);
	} catch (error) {
		await rm(out, {recursive: true, force: true});
		throw error;
	} finally {
		await rm(lock, {recursive: true, force: true});
	}
}

async function build(out: string): Promise<string> {
	const built = await hlab(['build-host', '--out', out], {timeoutMs: buildTimeoutMs});
	if (built.record.exit_code !== 0) throw new Error(`build-host failed (${built.record.exit_code ?? built.record.failure}): ${built.stderr}`);
	return join(out, 'hlab');
}
