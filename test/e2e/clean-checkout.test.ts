import {cp, mkdir, readFile, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';
import {fencedBlocks} from '../docs/markdown.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

// The README followed in a fresh clone, as a new user would: afterwards `git status` is clean, and the rules still pass.
checkNoLeaks(t);
// Longer than the suite's 300 s per file: the walkthrough is minutes of real builds and runs on a shared machine.
t.setTimeout(1_800_000);

interface Run {
	code: number | null;
	out: string;
}

async function sh(script: string, cwd: string, env: Record<string, string> = {}, deadlineMs = 600_000): Promise<Run> {
	const run = await runInGroup({argv: ['env', '-u', 'NODE_OPTIONS', 'bash', '-e', '-o', 'pipefail', '-c', script], cwd, env, deadlineMs, stdoutLimit: 8 << 20, stderrLimit: 8 << 20});
	return {code: run.record.exit_code, out: `${run.stdout?.toString() ?? ''}${run.stderr?.toString() ?? ''}`};
}

async function must(script: string, cwd: string): Promise<string> {
	const run = await sh(script, cwd);
	if (run.code !== 0) throw new Error(`${script}: ${run.out}`);
	return run.out;
}

/**
 * A clone of this checkout in its working state (commit, patch, untracked files, committed in the clone so that it
 * starts clean), with this checkout's node_modules and dist/ linked in as `npm ci` would have made them.
 */
async function freshClone(dir: string): Promise<string> {
	const clone = join(dir, 'clone');
	await must(`git clone -q '${installRoot}' '${clone}'`, dir);
	await must(`git -C '${installRoot}' diff HEAD --binary > '${dir}/working.diff'; if [ -s '${dir}/working.diff' ]; then git apply --binary '${dir}/working.diff'; fi`, clone);
	const untracked = (await must('git ls-files --others --exclude-standard -z', installRoot)).split('\0').filter(name => name !== '');
	for (const name of untracked) {
		await mkdir(join(clone, name, '..'), {recursive: true});
		await cp(join(installRoot, name), join(clone, name), {verbatimSymlinks: true});
	}
	await must('git add -A && git -c user.name=t -c user.email=t@example.invalid commit -q --allow-empty -m "the working state"', clone);
	await symlink(join(installRoot, 'node_modules'), join(clone, 'node_modules'));
	await symlink(join(installRoot, 'dist'), join(clone, 'dist'));
	// .gitignore's `dist/` names a folder; the link stands for the folder `npm ci` builds.
	await writeFile(join(clone, '.git', 'info', 'exclude'), 'dist\n', {flag: 'a'});
	return clone;
}

const suiteScript = /^npm (ci|start|test|run \S+)(\s|$)/;

/** The README's blocks a user runs by hand: `sh`, not marked, not only the project's own npm scripts. */
function readmeBlocks(): Array<{line: number; text: string; exit: number}> {
	return fencedBlocks('README.md').filter(block => block.lang === 'sh' && !('skip' in block.attributes) && !('pending' in block.attributes)).filter(block => {
		const commands = block.text.replace(/\\\n/g, ' ').split('\n').map(line => line.replace(/(^|\s)#.*$/, '').trim()).filter(line => line !== '');
		return !commands.every(command => suiteScript.test(command));
	}).map(block => ({line: block.line, text: block.text, exit: Number(block.attributes['exit'] ?? '0')}));
}

t.test('following the README in a fresh clone leaves git status clean and the rules passing', {timeout: 1_800_000}, async t => {
	const work = await tempDir(t, 'hlab-clean-checkout-');
	const clone = await freshClone(work);
	t.equal(await must('git status --porcelain', clone), '', 'the clone starts clean');
	const shims = join(work, 'bin');
	const runtime = join(work, 'runtime');
	await Promise.all([mkdir(shims), mkdir(runtime)]);
	await writeFile(join(shims, 'hlab'), `#!/bin/sh\nexec '${process.execPath}' '${join(clone, 'bin', 'hlab.js')}' "$@"\n`, {mode: 0o755});
	const env = {PATH: `${shims}:${join(installRoot, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}`, XDG_RUNTIME_DIR: runtime, TMPDIR: runtime};
	const blocks = readmeBlocks();
	t.ok(blocks.length >= 2, 'the README has its walkthrough blocks');
	// One reader's shell: each block starts where the one before ended (docs/examples.test.ts's convention).
	const ended = join(runtime, 'block-cwd');
	let here = clone;
	for (const block of blocks) {
		const ran = await sh(`trap 'pwd > "$HLAB_DOCS_CWD"' EXIT\n${block.text}`, here, {...env, HLAB_DOCS_CWD: ended});
		t.equal(ran.code, block.exit, `README.md:${block.line} exits ${block.exit}`, {output: ran.out.slice(-4000)});
		here = (await readFile(ended, 'utf8')).trimEnd();
	}
	t.equal(await must('git status --porcelain', clone), '', 'git status is clean: the evidence went to ignored folders');
	t.match(await must('git status --porcelain --ignored', clone), /^!! experiments\/$/m, 'the evidence is under experiments/');

	// The rules look at the project's folders only: evidence anywhere else in the checkout (with the candidate's SDK copy) is no module of the project.
	await must(`cp -a experiments/first my-run`, clone);
	const rules = await sh('npm run rules', clone, {PATH: env.PATH});
	t.equal(rules.code, 0, 'npm run rules passes beside the evidence', {output: rules.out.slice(-4000)});
});
