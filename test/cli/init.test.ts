import {readFile, writeFile, mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';
import {fencedBlocks} from '../docs/markdown.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);
// Each skeleton's README is followed to the end: a few real attempts and a controller check.
t.setTimeout(600_000);

/** `hlab` on PATH, as a user who installed the package has it, on this test's Node 22. */
async function shims(): Promise<Record<string, string>> {
	const bin = await tempDir(t, 'hlab-init-bin-');
	await writeFile(join(bin, 'hlab'), `#!/bin/sh\nexec '${process.execPath}' '${join(installRoot, 'bin', 'hlab.js')}' "$@"\n`, {mode: 0o755});
	return {PATH: `${bin}:${join(installRoot, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}`};
}

const env = await shims();

/** Runs every sh block of DIR/README.md in DIR, in order, as the README's reader would. */
async function followReadme(dir: string): Promise<Array<{line: number; exit: number | null; output: string}>> {
	const blocks = fencedBlocks('README.md', await readFile(join(dir, 'README.md'), 'utf8')).filter(block => block.lang === 'sh');
	const runs = [];
	for (const block of blocks) {
		const run = await runInGroup({argv: ['bash', '-e', '-o', 'pipefail', '-c', block.text], cwd: dir, env, deadlineMs: 240_000, stdoutLimit: 8 << 20, stderrLimit: 8 << 20});
		runs.push({line: block.line, exit: run.record.exit_code, output: `${run.stdout?.toString() ?? ''}${run.stderr?.toString() ?? ''}`});
	}
	return runs;
}

const expectations = {
	plugin: [/^valid: .*candidate\.ts/m, /candidate attempt finished \(in-process\): 2\/2 passed/, /decision written to .*experiments\/decision\.json/],
	cartridge: [/^passed: 1\/1 cases/m, /baseline attempt finished \(in-process\): 1\/1 passed/],
	controller: [/pinned files match/, /baseline attempt finished \(in-process\): 2\/2 passed/, /^controller check passed/m],
} as const;

for (const [kind, wanted] of Object.entries(expectations)) {
	t.test(`hlab init ${kind}: the skeleton, freshly written, validates and runs once offline as its README says`, async t => {
		const base = await tempDir(t, `hlab-init-${kind}-`);
		const dir = join(base, kind);
		const init = await hlab(['init', kind, dir]);
		t.equal(init.record.exit_code, 0, 'init succeeds', {stderr: init.stderr});
		t.match(init.stdout, /README\.md/, 'it lists what it wrote');
		const sources = (await runInGroup({argv: ['grep', '-rhoE', "from '[^']*sdk'", dir], deadlineMs: 10_000})).stdout?.toString() ?? '';
		t.match(sources, /from 'hlab\/sdk'/, 'it imports the SDK by the package\'s name');
		t.notMatch(sources, /harness-lab\/sdk/, 'never by the old name');
		const runs = await followReadme(dir);
		t.ok(runs.length > 0, 'the README has commands');
		for (const run of runs) t.equal(run.exit, 0, `README.md:${run.line} exits 0`, {output: run.output.slice(-4000)});
		const output = runs.map(run => run.output).join('\n');
		for (const pattern of wanted) t.match(output, pattern);
	});
}

t.test('hlab init refuses a non-empty folder, a missing parent and an unknown kind, in one line with exit 2, and writes nothing', async t => {
	const base = await tempDir(t, 'hlab-init-refusals-');
	const occupied = join(base, 'occupied');
	await mkdir(occupied);
	await writeFile(join(occupied, 'mine.txt'), 'my own file\n');
	const refusals = {
		'a non-empty folder': {args: ['init', 'plugin', occupied], message: /^hlab: .*occupied is not empty \(1 entry\): give a new or empty folder\n$/},
		'a file': {args: ['init', 'cartridge', join(occupied, 'mine.txt')], message: /^hlab: .*mine\.txt exists and is not a folder\n$/},
		'a missing parent': {args: ['init', 'controller', join(base, 'no', 'such')], message: /^hlab: .*\/no\/such: its parent folder .*\/no does not exist\n$/},
		'an unknown kind': {args: ['init', 'host', join(base, 'new')], message: /^hlab: .*'host' is invalid.*plugin, cartridge, controller.*\n$/},
	};
	for (const [what, {args, message}] of Object.entries(refusals)) {
		const run = await hlab(args);
		t.equal(run.record.exit_code, 2, `${what}: exit 2`);
		t.match(run.stderr, message, `${what}: one line that says why`);
	}
	const left = (await runInGroup({argv: ['find', base, '-mindepth', '1'], deadlineMs: 10_000})).stdout?.toString().trim().split('\n').sort();
	t.strictSame(left, [occupied, join(occupied, 'mine.txt')], 'nothing was written, and the folder\'s own file is as it was');
	t.equal(await readFile(join(occupied, 'mine.txt'), 'utf8'), 'my own file\n');
});

t.test('hlab init writes into an empty folder that exists', async t => {
	const dir = await tempDir(t, 'hlab-init-empty-');
	const run = await hlab(['init', 'plugin', dir]);
	t.equal(run.record.exit_code, 0, run.stderr);
	t.match(await readFile(join(dir, 'candidate.ts'), 'utf8'), /agent\.step\.policy/);
});
