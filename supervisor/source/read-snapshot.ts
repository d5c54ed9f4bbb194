import * as tar from 'tar';
import {z} from 'zod';
import {digestBytes} from '../../files/digest.js';
import {SourceError} from './git.js';
import {SnapshotManifest, untrackedMember} from './snapshot-manifest.js';
import {sourceDigest} from './checkout-state.js';
import {describeIssues} from '../../controller-protocol/index.js';

export interface SnapshotCheck {
	manifest: SnapshotManifest;
	/** Each member whose bytes do not match the manifest, missing members and unexpected ones, as sentences. */
	problems: string[];
}

/** Reads a source archive and checks every member against its manifest. An archive without a manifest is refused. */
export async function readSnapshot(file: string): Promise<SnapshotCheck> {
	const members = new Map<string, Buffer>();
	try {
		await tar.list({
			file,
			onReadEntry(entry) {
				const chunks: Buffer[] = [];
				const path = entry.path;
				const isLink = entry.type === 'SymbolicLink';
				if (isLink) members.set(path, Buffer.from(entry.linkpath ?? ''));
				entry.on('data', (chunk: Buffer) => chunks.push(chunk));
				entry.on('end', () => {
					if (!isLink) members.set(path, Buffer.concat(chunks));
				});
			},
		});
	} catch (error) {
		throw new SourceError('snapshot_invalid', `${file} is not a readable tar archive: ${(error as Error).message}`);
	}
	const raw = members.get('snapshot.json');
	if (raw === undefined) throw new SourceError('snapshot_invalid', `${file} has no snapshot.json; it is not a harness-lab source snapshot`);
	let manifest: SnapshotManifest;
	try {
		manifest = SnapshotManifest.parse(JSON.parse(raw.toString('utf8')));
	} catch (error) {
		throw new SourceError('snapshot_invalid', `${file}: snapshot.json is invalid: ${error instanceof z.ZodError ? describeIssues(error) : (error as Error).message}`);
	}
	const problems: string[] = [];
	const expected = new Map<string, string>([['head.diff', manifest.diff.digest]]);
	for (const entry of manifest.untracked) expected.set(untrackedMember(entry.path), entry.digest);
	for (const [name, digest] of expected) {
		const bytes = members.get(name);
		if (bytes === undefined) problems.push(`${name} is missing from the archive`);
		else if (digestBytes(bytes) !== digest) problems.push(`${name} does not match its recorded digest`);
	}
	for (const name of members.keys()) {
		if (name !== 'snapshot.json' && !expected.has(name)) problems.push(`${name} is in the archive but not in its manifest`);
	}
	if (sourceDigest(manifest.commit, manifest.diff.digest, manifest.untracked) !== manifest.source_digest) problems.push('source_digest does not match the recorded commit, patch and files');
	return {manifest, problems};
}
