import {mkdir, readdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {git} from '../../supervisor/source/git.js';
import {readSnapshot} from '../../supervisor/source/index.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

/** A git project shaped like a harness-lab checkout (its package.json gives the hlab command), with one commit. */
async function harnessCheckout(dir: string): Promise<void> {
	await git(dir, ['init', '-q']);
	await writeFile(join(dir, 'package.json'), JSON.stringify({name: 'hlab', bin: {hlab: 'bin/hlab.js'}}));
	await writeFile(join(dir, 'engine.ts'), 'export const step = 1;\n');
	await git(dir, ['add', '.']);
	await git(dir, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'base']);
}

t.test('snapshot-source leaves an attempt\'s evidence folder out of the source and says so', async t => {
	const repo = await tempDir(t, 'hlab-snapshot-evidence-');
	await harnessCheckout(repo);
	await writeFile(join(repo, 'new-tool.ts'), 'export {};\n');
	// A real attempt's evidence, written where the old README put it: an untracked, not-ignored folder of the checkout.
	const frozen = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], {cwd: repo});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	await mkdir(join(repo, 'runs'));
	const ran = await hlab(['eval', '--plan', 'plan.json', '--candidate', join(installRoot, 'examples', 'candidates', 'step-budget.ts'), '--artifacts', 'runs/candidate'], {cwd: repo});
	t.equal(ran.record.exit_code, 0, ran.stderr);
	t.ok((await readdir(join(repo, 'runs', 'candidate'))).includes('candidate'), 'the evidence holds the candidate and its SDK copy');
	const snapshot = await hlab(['snapshot-source', '--out', join(repo, '..', `${repo.split('/').pop()}.tar`), '--dir', repo, '--json'], {cwd: repo});
	t.equal(snapshot.record.exit_code, 0, snapshot.stderr);
	t.match(snapshot.stderr, /^hlab: left out of the source: runs\/candidate\/ \(evidence, \d+ files\)\n$/, 'one line names what was left out');
	const manifest = JSON.parse(snapshot.stdout) as {untracked: Array<{path: string}>};
	t.same(manifest.untracked.map(file => file.path), ['new-tool.ts', 'plan.json'], 'the source is the project\'s files, not the evidence');
	t.same((await readSnapshot(join(repo, '..', `${repo.split('/').pop()}.tar`))).problems, []);
});

t.test('a folder named like evidence but without its markers is source', async t => {
	const repo = await tempDir(t, 'hlab-snapshot-lookalike-');
	await harnessCheckout(repo);
	await mkdir(join(repo, 'baseline'));
	await writeFile(join(repo, 'baseline', 'plan.json'), '{}\n');
	const out = join(repo, '..', `${repo.split('/').pop()}.tar`);
	const snapshot = await hlab(['snapshot-source', '--out', out, '--dir', repo, '--json'], {cwd: repo});
	t.equal(snapshot.record.exit_code, 0, snapshot.stderr);
	t.equal(snapshot.stderr, '', 'nothing left out');
	t.same((JSON.parse(snapshot.stdout) as {untracked: Array<{path: string}>}).untracked.map(file => file.path), ['baseline/plan.json']);
});

t.test('snapshot-source in a git project that is not harness-lab\'s is refused in one line, before anything is written', async t => {
	const repo = await tempDir(t, 'hlab-snapshot-foreign-');
	await git(repo, ['init', '-q']);
	await writeFile(join(repo, 'package.json'), JSON.stringify({name: 'mine'}));
	await git(repo, ['add', '.']);
	await git(repo, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'mine']);
	// build-host builds the checkout hlab runs from (harness-lab's here); an installed copy inside a user's project is refused in test/e2e/installed-package.test.ts.
	const refused = await hlab(['snapshot-source', '--out', 'source.tar'], {cwd: repo});
	t.equal(refused.record.exit_code, 2);
	t.match(refused.stderr, /^hlab: \S+ is inside the git checkout \S+, which is not a harness-lab checkout [^\n]*\n$/);
	t.same((await readdir(repo)).sort(), ['.git', 'package.json']);
});

t.test('a git repository of its own inside the checkout is left out by name (it used to fail with EISDIR)', async t => {
	const repo = await tempDir(t, 'hlab-snapshot-nested-');
	await harnessCheckout(repo);
	await mkdir(join(repo, 'vendor', 'other'), {recursive: true});
	await git(join(repo, 'vendor', 'other'), ['init', '-q']);
	await writeFile(join(repo, 'vendor', 'other', 'file.txt'), 'theirs\n');
	const out = join(repo, '..', `${repo.split('/').pop()}.tar`);
	const snapshot = await hlab(['snapshot-source', '--out', out, '--dir', repo, '--json'], {cwd: repo});
	t.equal(snapshot.record.exit_code, 0, snapshot.stderr);
	t.equal(snapshot.stderr, 'hlab: left out of the source: vendor/other/ (a git repository of its own)\n');
	t.same((JSON.parse(snapshot.stdout) as {untracked: unknown[]}).untracked, []);
});
