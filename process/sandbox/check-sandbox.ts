import {spawnSync} from 'node:child_process';
import path from 'node:path';
import {whyNotExecutable} from '../find-executable.js';
import {installFix, namespaceFix} from './sandbox-fix.js';

/** Whether bubblewrap can sandbox a command here: its path and version, or the one-line reason it cannot, ending with the command that fixes it. */
export type SandboxCheck = {ok: true; bwrap: string; version: string} | {ok: false; reason: string};

let checked: SandboxCheck | undefined;

/**
 * Finds `bwrap` on PATH and runs one trial sandbox with every namespace a command gets: an installed bwrap that the
 * kernel or the container forbids (no user namespaces, no CAP_SYS_ADMIN) is as unusable as a missing one.
 */
export function checkSandbox(): SandboxCheck {
	checked ??= probe();
	return checked;
}

function probe(): SandboxCheck {
	const bwrap = (process.env.PATH ?? '').split(':').map(dir => path.join(dir || '.', 'bwrap')).find(file => whyNotExecutable(file, '/', undefined) === null);
	if (bwrap === undefined) return {ok: false, reason: `bwrap is not on PATH: install bubblewrap; fix: ${installFix}`};
	const version = spawnSync(bwrap, ['--version'], {encoding: 'utf8', timeout: 5000});
	const trial = spawnSync(bwrap, [...namespaceArgs(false), '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'], {encoding: 'utf8', timeout: 5000});
	if (trial.status !== 0) {
		const why = (trial.stderr || trial.error?.message || `exit ${trial.status ?? trial.signal}`).trim().split('\n')[0];
		return {ok: false, reason: `${bwrap} cannot create a sandbox here (${why}); fix: ${namespaceFix()}`};
	}
	return {ok: true, bwrap, version: version.stdout.trim().replace(/^bubblewrap\s+/, '') || 'unknown'};
}

/** Its own pid namespace (so /proc shows no process outside), IPC, and without network its own network namespace. */
export function namespaceArgs(network: boolean): string[] {
	return ['--unshare-pid', '--unshare-ipc', ...(network ? [] : ['--unshare-net']), '--die-with-parent'];
}
