import {runInGroup} from '../../process/index.js';

/** A failure of the source tools that callers branch on. */
export class SourceError extends Error {
	constructor(readonly reason: 'not_a_checkout' | 'git_failed' | 'build_failed' | 'output_exists' | 'snapshot_invalid', message: string) {
		super(message);
	}
}

const gitTimeoutMs = 120_000;
/** Diffs and file lists can be large; a checkout beyond this is refused rather than truncated. */
const gitOutputLimit = 512 * 1024 * 1024;

/** Runs `git -C root ...args` supervised and returns its stdout; any failure is a `git_failed` SourceError. */
export async function git(root: string, args: string[]): Promise<Buffer> {
	const run = await runInGroup({
		argv: ['git', '-C', root, ...args],
		// No pager, no locale-dependent messages, no prompts.
		env: {GIT_PAGER: 'cat', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0'},
		deadlineMs: gitTimeoutMs,
		stdoutLimit: gitOutputLimit,
		stderrLimit: 1024 * 1024,
	});
	if (run.record.failure !== null || run.record.exit_code !== 0) {
		const detail = run.record.failure_message ?? run.stderr?.toString().trim() ?? '';
		throw new SourceError('git_failed', `git ${args.join(' ')} failed (exit ${run.record.exit_code ?? run.record.signal}): ${detail}`);
	}
	return run.stdout ?? Buffer.alloc(0);
}

/** The top folder of the git work tree holding `dir`. */
export async function checkoutRoot(dir: string): Promise<string> {
	try {
		return (await git(dir, ['rev-parse', '--show-toplevel'])).toString().trim();
	} catch (error) {
		throw new SourceError('not_a_checkout', `${dir} is not inside a git checkout: ${(error as Error).message}`);
	}
}
