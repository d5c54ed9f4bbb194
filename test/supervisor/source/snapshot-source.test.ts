import {mkdir, mkdtemp, readFile, writeFile, symlink} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import * as tar from 'tar';
import t from 'tap';
import {checkNoLeaks} from '../../leak-check.js';
import {git} from '../../../supervisor/source/git.js';
import {readCheckoutState, readSnapshot, snapshotSource} from '../../../supervisor/source/index.js';
import {runInGroup} from '../../../process/index.js';

checkNoLeaks(t);

async function checkout(): Promise<string> {
	const repo = await mkdtemp(join(tmpdir(), 'hlab-source-'));
	await git(repo, ['init', '-q']);
	await writeFile(join(repo, '.gitignore'), 'ignored/\n');
	await writeFile(join(repo, 'engine.ts'), 'export const step = 1;\n');
	await writeFile(join(repo, 'blob.bin'), Buffer.from([0, 1, 2, 3]));
	await git(repo, ['add', '.']);
	await git(repo, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'base']);
	return repo;
}

t.test('a snapshot holds the commit, the complete patch and every untracked, not-ignored file', async t => {
	const repo = await checkout();
	await writeFile(join(repo, 'engine.ts'), 'export const step = 2;\n');
	await writeFile(join(repo, 'blob.bin'), Buffer.from([9, 9, 0, 255]));
	await mkdir(join(repo, 'new', 'deep'), {recursive: true});
	await writeFile(join(repo, 'new', 'deep', 'tool.ts'), 'export {};\n');
	await symlink('engine.ts', join(repo, 'link.ts'));
	await mkdir(join(repo, 'ignored'));
	await writeFile(join(repo, 'ignored', 'secret.txt'), 'not source\n');
	const out = join(repo, '..', `${repo.split('/').pop()}-source.tar`);
	const manifest = await snapshotSource({dir: repo, out});
	t.equal(manifest.commit, (await git(repo, ['rev-parse', 'HEAD'])).toString().trim());
	t.equal(manifest.dirty, true);
	t.same(manifest.untracked.map(file => file.path), ['link.ts', 'new/deep/tool.ts']);
	t.same((await readSnapshot(out)).problems, []);

	t.test('the archive reconstructs the exact source on a clean clone of the commit', async t => {
		const clone = await mkdtemp(join(tmpdir(), 'hlab-restore-'));
		await git(clone, ['clone', '-q', repo, 'tree']);
		const tree = join(clone, 'tree');
		await git(tree, ['checkout', '-q', manifest.commit]);
		const unpacked = join(clone, 'unpacked');
		await mkdir(unpacked);
		await tar.extract({file: out, cwd: unpacked});
		await git(tree, ['apply', '--binary', join(unpacked, 'head.diff')]);
		const copy = await runInGroup({argv: ['cp', '-a', `${join(unpacked, 'untracked')}/.`, tree], deadlineMs: 30_000});
		t.equal(copy.record.exit_code, 0);
		const restored = await readCheckoutState(tree);
		t.equal(restored.source_digest, manifest.source_digest, 'same commit, patch and untracked files');
		t.same(await readFile(join(tree, 'blob.bin')), Buffer.from([9, 9, 0, 255]), 'binary changes survive');
	});

	t.test('an existing output is refused', async t => {
		const again = await snapshotSource({dir: repo, out}).then(() => null, (error: {reason?: string}) => error);
		t.equal(again?.reason, 'output_exists');
	});

	t.test('a tampered member is reported', async t => {
		const unpacked = await mkdtemp(join(tmpdir(), 'hlab-tamper-'));
		await tar.extract({file: out, cwd: unpacked});
		await writeFile(join(unpacked, 'untracked', 'new', 'deep', 'tool.ts'), 'export const evil = 1;\n');
		const forged = join(unpacked, 'forged.tar');
		await tar.create({file: forged, cwd: unpacked, portable: true}, ['snapshot.json', 'head.diff', 'untracked/link.ts', 'untracked/new/deep/tool.ts']);
		t.match((await readSnapshot(forged)).problems, ['untracked/new/deep/tool.ts does not match its recorded digest']);
	});
});

t.test('a folder outside any checkout is refused', async t => {
	const dir = await mkdtemp(join(tmpdir(), 'hlab-nogit-'));
	const error = await snapshotSource({dir, out: join(dir, 's.tar')}).then(() => null, (caught: {reason?: string}) => caught);
	t.equal(error?.reason, 'not_a_checkout');
});
