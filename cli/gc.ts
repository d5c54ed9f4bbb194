import {existsSync} from 'node:fs';
import {resolve} from 'node:path';
import type {Command} from 'commander';
import type {GcLine} from '../supervisor/cleanup/index.js';
import {UsageError} from '../supervisor/input-error.js';
import {okExit} from './exit-codes.js';
import {parseDuration} from './parse-units.js';

interface GcFlags {
	dryRun?: boolean;
	olderThan: string;
	evidence?: string[];
	shm: string;
	agents?: boolean;
}

export function registerGc(program: Command): void {
	program
		.command('gc')
		.description("remove hlab's leftovers: temporary folders, runtime roots of attempts whose supervisor is gone, the digest cache, pinned copies no evidence links to; never evidence unless named (gc DIR...), never what a live process holds")
		.option('--dry-run', 'list what would go, with sizes, and remove nothing')
		.option('--older-than <duration>', 'keep temporary and runtime folders changed more recently than this (a run no evidence here names may own them)', '1h')
		.option('--evidence <dir...>', 'folders whose attempts name their runtime roots (default: ./experiments when it exists, else the working directory)')
		.option('--shm <dir>', 'the shared-memory tmpfs where runtime roots fall back', '/dev/shm')
		.option('--agents', 'also remove agent installs in the store that no spec in examples/agents/ pins')
		.argument('[dir...]', 'instead: remove these attempts\' evidence directories, and nothing else; each must be an attempt\'s folder that no live supervisor or process uses, else none is removed (exit 2). Give them before --evidence, which takes every folder after it')
		.action(async (dirs: string[], flags: GcFlags, command: Command) => {
			// Loaded when the command runs, not by its --help.
			const {collectGarbage, removeNamedEvidence} = await import('../supervisor/cleanup/index.js');
			const lines = dirs.length > 0 ? await removeNamedEvidence(namedEvidence(dirs, command), {dryRun: flags.dryRun === true}) : await collectGarbage({
				env: process.env, shm: resolve(flags.shm), agents: flags.agents === true, dryRun: flags.dryRun === true,
				olderThanMs: olderThan(flags.olderThan), evidence: evidenceFolders(flags.evidence),
			});
			for (const line of lines) process.stdout.write(`${lineText(line, flags.dryRun === true)}\n`);
			process.stdout.write(`${summary(lines, flags.dryRun === true)}\n`);
			process.exitCode = okExit;
		});
}

/** `hlab gc DIR...`: the named folders, once no flag of the leftover sweep is given (it would say something the command does not do). */
function namedEvidence(dirs: string[], command: Command): string[] {
	const stray = ['evidence', 'agents', 'olderThan', 'shm'].find(key => command.getOptionValueSource(key) === 'cli');
	if (stray !== undefined) throw new UsageError(`--${stray.replace(/[A-Z]/g, letter => `-${letter.toLowerCase()}`)} is an option of the leftover sweep; gc DIR... removes only the named evidence`);
	return dirs;
}

function olderThan(text: string): number {
	try {
		return parseDuration(text);
	} catch (error) {
		throw new UsageError(`--older-than: ${(error as Error).message}`);
	}
}

function evidenceFolders(named: string[] | undefined): string[] {
	if (named === undefined) return [resolve(existsSync('experiments') ? 'experiments' : '.')];
	const missing = named.find(dir => !existsSync(dir));
	if (missing !== undefined) throw new UsageError(`--evidence ${missing}: no such folder`);
	return named.map(dir => resolve(dir));
}

function lineText(line: GcLine, dryRun: boolean): string {
	const action = line.kept !== null ? 'kept' : dryRun ? 'would remove' : 'removed';
	return `${action.padEnd(12)} ${size(line.bytes).padStart(10)}  ${line.path}  (${line.kept ?? line.what})`;
}

function summary(lines: GcLine[], dryRun: boolean): string {
	const gone = lines.filter(line => line.kept === null);
	const bytes = gone.reduce((sum, line) => sum + line.bytes, 0);
	return `${dryRun ? 'would remove' : 'removed'} ${gone.length} of ${lines.length} leftovers, ${size(bytes)}`;
}

function size(bytes: number): string {
	const units = ['B', 'KiB', 'MiB', 'GiB'];
	let value = bytes;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit += 1;
	}
	return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
