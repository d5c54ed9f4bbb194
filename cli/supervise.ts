import {constants} from 'node:os';
import type {Command} from 'commander';
import {chooseContainment, Containment, describeLeaks, runInGroup, graceMs} from '../process/index.js';
import {writeJson} from '../files/write-json.js';
import {UsageError} from '../supervisor/input-error.js';
import {outputLimitExit, spawnExit, timeoutExit} from './exit-codes.js';
import {durationText, parseBytes, parseDuration} from './parse-units.js';
import {absolutePath} from './path-option.js';

interface SuperviseFlags {
	deadline?: string;
	grace: string;
	stdoutLimit: string;
	stderrLimit: string;
	record?: string;
	containment?: string;
}

export function registerSupervise(program: Command): void {
	program
		.command('supervise')
		.description('run any command in its own process group under a deadline and byte limits, then end its whole tree')
		.option('--deadline <duration>', 'end the tree after this long (e.g. 30s, 2m)')
		.option('--grace <duration>', 'time between SIGTERM and SIGKILL', durationText(graceMs))
		.option('--stdout-limit <size>', 'bytes of stdout passed through before the tree is ended', '8MiB')
		.option('--stderr-limit <size>', 'bytes of stderr passed through before the tree is ended', '256KiB')
		.option('--record <file>', 'write the process record (process.json) here', absolutePath)
		.option('--containment <backend>', `force a containment backend (${Containment.options.join(', ')}); default: HLAB_CONTAINMENT, else the strongest available`)
		.argument('<command...>', 'the command and its arguments (after --)')
		.action(async (command: string[], flags: SuperviseFlags) => {
			let options;
			try {
				options = {
					deadlineMs: flags.deadline === undefined ? null : parseDuration(flags.deadline),
					graceMs: parseDuration(flags.grace),
					stdoutLimit: parseBytes(flags.stdoutLimit),
					stderrLimit: parseBytes(flags.stderrLimit),
					// A forced backend that cannot be used here is bad input, named before anything starts.
					containment: chooseContainment(parseContainment(flags.containment)),
				};
			} catch (error) {
				// Every option is read before anything starts: a value that does not parse is bad input.
				throw new UsageError((error as Error).message);
			}
			const run = await runInGroup({
				argv: command,
				...options,
				stdin: 'inherit',
				stdout: {kind: 'stream', stream: process.stdout},
				stderr: {kind: 'stream', stream: process.stderr},
			});
			if (flags.record) await writeJson(flags.record, run.record, {atomic: true});
			const {record} = run;
			if (record.failure !== null) process.stderr.write(`hlab supervise: ${record.failure_message}\n`);
			if (record.leaks.length > 0) process.stderr.write(`hlab supervise: ${describeLeaks(record)}\n`);
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
	return 128 + (constants.signals[record.signal as NodeJS.Signals] ?? 0);
}

function parseContainment(value: string | undefined): Containment | undefined {
	if (value === undefined) return undefined;
	const parsed = Containment.safeParse(value);
	if (!parsed.success) throw new UsageError(`invalid containment backend: ${value} (one of ${Containment.options.join(', ')})`);
	return parsed.data;
}
