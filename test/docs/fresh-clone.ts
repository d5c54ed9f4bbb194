import {cp, mkdir, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {installRoot} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';

/**
 * A clone of this checkout in its working state (commit, patch, untracked files, committed in the clone so that it
 * starts clean), with this checkout's node_modules and dist/ linked in as `npm ci` would have made them.
 */
export async function freshClone(dir: string): Promise<string> {
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

/** Runs a script as a user's shell would (without tap's loaders in NODE_OPTIONS): its exit code and its output. */
export async function sh(script: string, cwd: string, env: Record<string, string> = {}): Promise<{code: number | null; out: string}> {
	const run = await runInGroup({argv: ['env', '-u', 'NODE_OPTIONS', 'bash', '-e', '-o', 'pipefail', '-c', script], cwd, env, deadlineMs: 600_000, stdoutLimit: 8 << 20, stderrLimit: 8 << 20});
	return {code: run.record.exit_code, out: `${run.stdout?.toString() ?? ''}${run.stderr?.toString() ?? ''}`};
}

/** The output of a script that must succeed. */
export async function must(script: string, cwd: string): Promise<string> {
	const run = await sh(script, cwd);
	if (run.code !== 0) throw new Error(`${script}: ${run.out}`);
	return run.out;
}
