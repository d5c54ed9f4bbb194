import {copyFile, mkdir, readFile, symlink, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import t, {type Test} from 'tap';
import {installRoot} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {startRedis} from '../supervisor/queue/redis-server.js';
import {tempDir} from '../temp-dir.js';
import {freshClone, must, sh} from './fresh-clone.js';
import {documentationPages, fencedBlocks, type FencedBlock} from './markdown.js';

/*
 * Every ```sh block of README.md and docs/*.md runs here. The convention, for whoever writes a page:
 *
 * - A page is a walkthrough: its blocks run in order, each as one `bash -e -o pipefail` script, as a reader types them
 *   into one shell: the first starts in a fresh directory per page that looks like the top of a checkout (`examples/`
 *   and `bin/` link to this one's), each next one where the one before ended (a `cd` carries over). It is a git
 *   repository with the checkout's .gitignore: afterwards `git status` there must be clean, so everything a page
 *   writes goes where git ignores it (`experiments/`) or outside the checkout, as a reader's checkout stays clean.
 * - The README is what a new user follows first, in a fresh clone: its page runs in a clone of this checkout's working
 *   state (node_modules and dist/ linked in, as `npm ci` makes them), its evidence must be under `experiments/`, and
 *   `npm run rules` must still pass there beside a copy of it.
 * - `hlab` is this checkout's `bin/hlab.js` on the test's Node 22 (a command on PATH).
 * - A block exits 0, or the status its info string names: ```sh exit=2 (a documented refusal).
 * - ```json file=NAME (any language) writes the block's text to NAME where the block before it ended (its folders made),
 *   for the blocks after it.
 * - ```sh redis: the test starts a Redis of its own and gives its URL as $REDIS_URL.
 * - ```sh skip="why" does not run here; ```sh pending="why" does not run yet (a command another branch brings).
 *   Both need a reason, and the test lists every one of them: keep them rare.
 * - By name, not by mark: a block whose every command is `npm ci`, `npm start`, `npm test` or `npm run ...` is the
 *   project's own scripts, the test suite itself among them; it is listed and not run.
 */

checkNoLeaks(t);
// Longer than the suite's 300 s per file: every page's walkthrough runs here, the README's agents among them.
t.setTimeout(1_800_000);
// Pages are independent walkthroughs in folders of their own; much of a page's time is waiting on processes.
t.jobs = 3;

// Generous for a loaded machine: on an idle one no block takes a minute but the README's agents (Qwen Code and pi over
// three tasks twice, 1.7 min at a load of 12; over the whole suite they once took more than five at a load of 20).
const blockTimeoutMs = 600_000;
const suiteScript = /^npm (ci|start|test|run \S+)(\s|$)/;
const readme = 'README.md';

type Plan = {kind: 'run'; exit: number; redis: boolean} | {kind: 'file'; name: string} | {kind: 'not-run'; why: string} | {kind: 'text'};

/** What the test does with a block, from its language and info string. */
function planOf(block: FencedBlock): Plan {
	if (block.attributes.file !== undefined) return {kind: 'file', name: block.attributes.file};
	if (block.lang !== 'sh') return {kind: 'text'};
	for (const mark of ['skip', 'pending'] as const) {
		const why = block.attributes[mark];
		if (why !== undefined) return {kind: 'not-run', why: `${mark}: ${why}`};
	}
	if (commandsOf(block).every(command => suiteScript.test(command))) return {kind: 'not-run', why: 'the project\'s own npm scripts (npm test is this suite)'};
	return {kind: 'run', exit: Number(block.attributes.exit ?? '0'), redis: 'redis' in block.attributes};
}

/** The block's commands: its lines without comments, blank lines and continuations joined. */
function commandsOf(block: FencedBlock): string[] {
	return block.text.replace(/\\\n/g, ' ').split('\n').map(line => line.replace(/(^|\s)#.*$/, '').trim()).filter(line => line !== '');
}

const where = (block: FencedBlock): string => `${block.page}:${block.line}`;

/** Where a page runs: a directory shaped like the top of a checkout (for the README, a fresh clone), with `hlab` on PATH. */
async function pageDir(t: Test, page: string): Promise<{cwd: string; runtime: string; env: Record<string, string>}> {
	const root = await tempDir(t, 'hlab-docs-');
	const cwd = page === readme ? await freshClone(root) : await checkoutLike(join(root, 'checkout'));
	const shims = join(root, 'bin');
	const runtime = join(root, 'runtime');
	await Promise.all([mkdir(shims), mkdir(runtime)]);
	await writeFile(join(shims, 'hlab'), `#!/bin/sh\nexec '${process.execPath}' '${join(cwd, 'bin', 'hlab.js')}' "$@"\n`, {mode: 0o755});
	// The runtime root and temporary files stay in the page's folder, which the test removes; the compiled-code cache
	// (else in TMPDIR, so cold for every page) is one for all pages, in the test's own temporary folder.
	return {cwd, runtime, env: {PATH: `${shims}:${join(installRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`, XDG_RUNTIME_DIR: runtime, TMPDIR: runtime, NODE_COMPILE_CACHE: compileCache}};
}

/** A git checkout of the links a page needs: the project's .gitignore, `examples/` and `bin/` linked to this one's, committed. */
async function checkoutLike(cwd: string): Promise<string> {
	await mkdir(cwd);
	await symlink(join(installRoot, 'examples'), join(cwd, 'examples'));
	await symlink(join(installRoot, 'bin'), join(cwd, 'bin'));
	await copyFile(join(installRoot, '.gitignore'), join(cwd, '.gitignore'));
	await git(cwd, 'init', '-q');
	await git(cwd, 'add', '-A');
	await git(cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'the checkout');
	return cwd;
}

/** What the README's clone must show afterwards, besides a clean status: the evidence ignored, and the rules passing beside it. */
async function afterReadme(t: Test, clone: string, env: Record<string, string>): Promise<void> {
	t.match(await git(clone, 'status', '--porcelain', '--ignored'), /^!! experiments\/$/m, 'README.md: the evidence is under experiments/');
	// The rules look at the project's folders only: evidence anywhere else in the checkout (with the candidate's SDK copy) is no module of the project.
	await must('cp -a experiments/first my-run', clone);
	const rules = await sh('npm run rules', clone, {PATH: env.PATH!});
	t.equal(rules.code, 0, 'README.md: npm run rules passes beside the evidence', {output: rules.out.slice(-4000)});
}

async function git(cwd: string, ...args: string[]): Promise<string> {
	const run = await runInGroup({argv: ['git', ...args], cwd, deadlineMs: 60_000});
	if (run.record.exit_code !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr?.toString() ?? ''}`);
	return run.stdout?.toString() ?? '';
}

const compileCache = await tempDir(t, 'hlab-docs-compile-cache-');
const notRun: string[] = [];

for (const page of documentationPages()) {
	const blocks = fencedBlocks(page);
	for (const block of blocks) {
		const plan = planOf(block);
		if (plan.kind === 'not-run') notRun.push(`${where(block)} (${plan.why})`);
	}
	if (!blocks.some(block => planOf(block).kind === 'run')) continue;
	t.test(page, {timeout: 1_200_000}, async t => {
		const {cwd, runtime, env} = await pageDir(t, page);
		t.equal(await git(cwd, 'status', '--porcelain', '--untracked-files=all'), '', `${page}: the checkout starts clean`);
		const ended = join(runtime, 'block-cwd');
		let here = cwd;
		for (const block of blocks) {
			const plan = planOf(block);
			if (plan.kind === 'file') {
				await mkdir(dirname(join(here, plan.name)), {recursive: true});
				await writeFile(join(here, plan.name), `${block.text}\n`);
			}
			if (plan.kind !== 'run') continue;
			const redis = plan.redis ? {REDIS_URL: `${(await startRedis(t)).url}/0`} : {};
			const run = await runInGroup({
				argv: ['bash', '-e', '-o', 'pipefail', '-c', `trap 'pwd > "$HLAB_DOCS_CWD"' EXIT\n${block.text}`],
				cwd: here, env: {...env, ...redis, HLAB_DOCS_CWD: ended}, deadlineMs: blockTimeoutMs, stdoutLimit: 8 << 20, stderrLimit: 8 << 20,
			});
			here = (await readFile(ended, 'utf8').catch(() => `${here}\n`)).trimEnd();
			const output = `${run.stdout?.toString() ?? ''}${run.stderr?.toString() ?? ''}`;
			t.equal(run.record.exit_code, plan.exit, `${where(block)} exits ${plan.exit}`, {output: output.slice(-4000), failure: run.record.failure});
		}
		t.equal(await git(cwd, 'status', '--porcelain', '--untracked-files=all'), '', `${page}: git status is clean afterwards (what the page wrote is under experiments/ or outside the checkout)`);
		if (page === readme) await afterReadme(t, cwd, env);
	});
}

t.test('every block that does not run here says why, and is listed', async t => {
	for (const page of documentationPages()) {
		for (const block of fencedBlocks(page)) {
			for (const mark of ['skip', 'pending']) {
				if (mark in block.attributes) t.not(block.attributes[mark], '', `${where(block)}: ${mark} names its reason`);
			}
		}
	}
	t.comment(`blocks not run (${notRun.length}):\n${notRun.join('\n')}`);
	t.ok(notRun.length < 12, 'marks stay rare');
});

t.test('the README starts with the two commands', async t => {
	const blocks = fencedBlocks(readme);
	const first = blocks.find(block => block.lang === 'sh');
	t.strictSame(first === undefined ? [] : commandsOf(first), ['npm ci && npm start', 'npm test']);
	t.ok(blocks.filter(block => planOf(block).kind === 'run').length >= 2, 'the README has its walkthrough blocks');
});
