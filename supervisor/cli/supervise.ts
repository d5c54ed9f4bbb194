import {writeFile} from 'node:fs/promises';
import type {Command} from 'commander';
import {runInGroup, defaultGraceMs} from '../../process/index.js';
import {fail, outputLimitExit, spawnExit, timeoutExit, usageExit} from './exit-codes.js';
import {parseBytes, parseDuration} from './parse-units.js';

interface SuperviseFlags {
	deadline?: string;
	grace: string;
	stdoutLimit: string;
	stderrLimit: string;
	record?: string;
}

export function registerSupervise(program: Command): void {
	program
		.command('supervise')
		.description('run any command in its own process group under a deadline and byte limits, then end its whole tree')
		.option('--deadline <duration>', 'end the tree after this long (e.g. 30s, 2m)')
		.option('--grace <duration>', 'time between SIGTERM and SIGKILL', `${defaultGraceMs}ms`)
		.option('--stdout-limit <size>', 'bytes of stdout passed through before the tree is ended', '8MiB')
		.option('--stderr-limit <size>', 'bytes of stderr passed through before the tree is ended', '256KiB')
		.option('--record <file>', 'write the process record (process.json) here')
		.argument('<command...>', 'the command and its arguments (after --)')
		.action(async (command: string[], flags: SuperviseFlags) => {
			let options;
			try {
				options = {
					timeoutMs: flags.deadline === undefined ? null : parseDuration(flags.deadline),
					graceMs: parseDuration(flags.grace),
					stdoutLimit: parseBytes(flags.stdoutLimit),
					stderrLimit: parseBytes(flags.stderrLimit),
				};
			} catch (error) {
				return fail((error as Error).message, usageExit);
			}
			const run = await runInGroup({
				argv: command,
				...options,
				stdin: 'inherit',
				stdout: {kind: 'stream', stream: process.stdout},
				stderr: {kind: 'stream', stream: process.stderr},
			});
			if (flags.record) await writeFile(flags.record, `${JSON.stringify(run.record, null, 2)}\n`);
			const {record} = run;
			if (record.failure !== null) process.stderr.write(`hlab supervise: ${record.failure_message}\n`);
			if (record.survivors.length > 0) process.stderr.write(`hlab supervise: processes survived cleanup: ${record.survivors.join(' ')}\n`);
			process.exitCode = exitStatus(record);
		});
}

/** The command's own status, or timeout(1)'s conventions when the supervisor ended it. */
function exitStatus(record: {failure: string | null; exit_code: number | null; signal: string | null}): number {
	switch (record.failure) {
		case 'timeout': return timeoutExit;
		case 'stdout_limit':
		case 'stderr_limit': return outputLimitExit;
		case 'spawn': return spawnExit;
		default: break;
	}
	if (record.exit_code !== null) return record.exit_code;
	const signals: Record<string, number> = {SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGTERM: 15};
	return 128 + (signals[record.signal ?? ''] ?? 0);
}
