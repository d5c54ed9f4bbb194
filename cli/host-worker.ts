import {text} from 'node:stream/consumers';
import type {Command} from 'commander';
import {installRoot} from '../files/install-root.js';
import {selfIdentity} from '../workers/host-identity.js';
import {serveHostRequest} from '../workers/host-worker.js';
import {UsageError} from '../supervisor/input-error.js';
import {failedExit, failOn} from './exit-codes.js';

export function registerHostWorker(program: Command): void {
	program
		.command('host-worker', {hidden: true})
		.description('serve one host-worker request (protocol v1): read the task request on stdin, run it with this build\'s engine, write one JSON line on stdout (used by the supervisor; not for people)')
		.action(serveHostWorker);
}

/**
 * The command itself: one request from stdin, one JSON line to stdout. `bin/hlab.js` runs it (`runHostWorker`) without the command
 * line parser when the command has no arguments, as the supervisor starts it once per host task.
 */
async function serveHostWorker(): Promise<void> {
	const input = await text(process.stdin);
	const identity = await selfIdentity(installRoot, process.argv[1] ?? '');
	const answer = await serveHostRequest(input, identity);
	if (!answer.ok) throw new UsageError(answer.message, 'host_request');
	await new Promise<void>((resolve, reject) => process.stdout.write(`${JSON.stringify(answer.response)}\n`, error => (error ? reject(error) : resolve())));
	process.exitCode = answer.response.outcome.status === 'failed' && answer.response.outcome.reason === 'crash' ? failedExit : 0;
}

/** `serveHostWorker` outside commander, ending as main.ts ends a command that threw: one `hlab:` line, status 2 for bad input, else 1. */
export async function runHostWorker(): Promise<void> {
	try {
		await serveHostWorker();
	} catch (error) {
		failOn(error);
	}
}
