import {existsSync, realpathSync} from 'node:fs';
import {dirname, join, basename, resolve} from 'node:path';
import {digestFile} from '../../files/digest.js';
import {readBuildRecord, verifyBuild} from '../source/verify-build.js';

/** The supervisor's measurement of a host executable: what was launched, never what it says about itself. */
export interface HostIdentity {
	/** The path as launched (absolute). */
	launched: string;
	/** Its real path, which a truthful worker reports. */
	path: string;
	kind: 'build' | 'file';
	digest: string;
	/** For a build: differences between the folder and its build.json (any makes the build untrustworthy). */
	problems: string[];
}

/**
 * Measures a host executable. A launcher with a build.json beside it that names it is a build, identified by
 * re-digesting every file of the folder and the node binary it names; any other executable by its own bytes.
 */
export async function identifyHost(exe: string): Promise<HostIdentity> {
	const launched = resolve(exe);
	const path = realpathSync(launched);
	const dir = dirname(path);
	if (existsSync(join(dir, 'build.json'))) {
		const record = await readBuildRecord(dir).catch(() => null);
		if (record !== null && record.launcher === basename(path)) {
			const check = await verifyBuild(dir);
			return {launched, path, kind: 'build', digest: check.digest, problems: check.problems};
		}
	}
	const digest = await digestFile(path);
	return {launched, path, kind: 'file', digest: digest ?? 'missing', problems: digest === null ? [`${path} cannot be read`] : []};
}

/** True when a worker's claimed path names the same file as the one measured. */
export function sameBinaryPath(claimed: string, identity: HostIdentity): boolean {
	try {
		return realpathSync(claimed) === identity.path;
	} catch {
		return false;
	}
}
