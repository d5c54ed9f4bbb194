import {runInGroup} from '../../process/index.js';
import type {AgentPackage} from '../agent-spec.js';

/** Generous for a slow registry; a real agent CLI with its dependencies installs in well under a minute. */
export const installDeadlineMs = 300_000;

export type NpmResult = {ok: true} | {ok: false; reason: 'not_found' | 'npm_failed'; message: string};

// npm's codes for a name or a version the registry does not have.
const notFoundCodes = new Set(['E404', 'ETARGET']);

/**
 * `npm install` of exactly one package@version into a folder: no package.json edit, no lifecycle script
 * (a package's install script would run before anything is verified), no audit or funding requests.
 */
export async function npmInstall(dir: string, pkg: AgentPackage, deadlineMs = installDeadlineMs): Promise<NpmResult> {
	const spec = `${pkg.name}@${pkg.version}`;
	const run = await runInGroup({
		argv: ['npm', 'install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--no-update-notifier', '--prefix', dir, spec],
		cwd: dir,
		deadlineMs,
		stdoutLimit: 1 << 20,
		stderrLimit: 1 << 20,
	});
	const {record} = run;
	if (record.failure !== null) return {ok: false, reason: 'npm_failed', message: `npm install ${spec}: ${record.failure_message ?? record.failure}`};
	if (record.exit_code === 0) return {ok: true};
	const stderr = run.stderr?.toString() ?? '';
	const code = /^npm (?:error|ERR!) code (\S+)/m.exec(stderr)?.[1] ?? null;
	return {
		ok: false,
		reason: code !== null && notFoundCodes.has(code) ? 'not_found' : 'npm_failed',
		message: `npm install ${spec} failed (${code ?? `exit ${record.exit_code ?? record.signal}`}): ${firstErrorLine(stderr)}`,
	};
}

/** npm's first line that says what went wrong, without its prefix; not its code line nor the pointer to its log. */
function firstErrorLine(stderr: string): string {
	const lines = stderr.split('\n').map(line => /^npm (?:error|ERR!) (.*)$/.exec(line)?.[1]?.trim() ?? '').filter(line => line !== '');
	return lines.find(line => !/^code \S+$/.test(line) && !/complete log of this run/.test(line)) ?? 'no message';
}

/** `npm --version`, for the manifest; null when npm cannot tell. */
export async function npmVersion(): Promise<string | null> {
	const run = await runInGroup({argv: ['npm', '--version'], deadlineMs: 30_000, stdoutLimit: 4096, stderrLimit: 65536});
	const version = run.stdout?.toString().trim() ?? '';
	return run.record.exit_code === 0 && version !== '' ? version : null;
}
