import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {digestFile} from '../../files/digest.js';
import {BuildRecord} from './build-record.js';
import {buildDigestOf, currentTable} from './tree-digest.js';
import {SourceError} from './git.js';
import {describeIssues} from '../../controller-protocol/index.js';

export interface BuildCheck {
	record: BuildRecord;
	/** The digest of the build as it is on disk now; equals `record.digest` exactly when `problems` is empty. */
	digest: string;
	problems: string[];
}

/** Reads `DIR/build.json`; a missing or malformed record is a `snapshot_invalid` SourceError. */
export async function readBuildRecord(dir: string): Promise<BuildRecord> {
	let json: unknown;
	try {
		json = JSON.parse(await readFile(join(dir, 'build.json'), 'utf8'));
	} catch (error) {
		throw new SourceError('snapshot_invalid', `cannot read ${join(dir, 'build.json')}: ${(error as Error).message}`);
	}
	const parsed = BuildRecord.safeParse(json);
	if (!parsed.success) throw new SourceError('snapshot_invalid', `${join(dir, 'build.json')} is not a host build record: ${describeIssues(parsed.error)}`);
	return parsed.data;
}

/** Re-digests every file of a build folder and the node binary it names, and lists what differs from build.json. */
export async function verifyBuild(dir: string): Promise<BuildCheck> {
	const record = await readBuildRecord(dir);
	const files = await currentTable(dir, record.files, rel => rel === 'build.json');
	const problems: string[] = [];
	for (const [name, digest] of Object.entries(record.files)) {
		if (!(name in files)) problems.push(`${name} is missing`);
		else if (files[name] !== digest) problems.push(`${name} changed`);
	}
	for (const name of Object.keys(files)) if (!(name in record.files)) problems.push(`${name} was added`);
	const nodeDigest = (await digestFile(record.node.path)) ?? 'missing';
	if (nodeDigest !== record.node.digest) problems.push(`the node binary ${record.node.path} changed or is missing`);
	const digest = buildDigestOf(files, {path: record.node.path, digest: nodeDigest});
	if (problems.length === 0 && digest !== record.digest) problems.push('the recorded overall digest does not match the files');
	return {record, digest, problems};
}
