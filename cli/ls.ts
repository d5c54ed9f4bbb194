import {existsSync, statSync} from 'node:fs';
import {resolve} from 'node:path';
import type {Command} from 'commander';
import {UsageError} from '../supervisor/input-error.js';
import {okExit} from './exit-codes.js';

export function registerLs(program: Command): void {
	program
		.command('ls')
		.description('list past attempts and decisions under a folder, one line each: kind, path, plan, side, candidate, status or verdict, when')
		.argument('[dir]', 'the folder to look under (default: ./experiments when it exists, else the working directory)')
		.option('--json', 'one JSON object a line, with the same fields (unknown is null)')
		.action(async (dir: string | undefined, flags: {json?: boolean}) => {
			const root = listedFolder(dir);
			// Loaded when the command runs, not by its --help.
			const {headerText, lineText, listEvidence} = await import('../supervisor/listing/index.js');
			let lines = 0;
			for await (const line of listEvidence(root)) {
				if (!flags.json && lines === 0) process.stdout.write(`${headerText}\n`);
				await writeLine(flags.json ? JSON.stringify(line) : lineText(line));
				lines += 1;
			}
			if (lines === 0 && !flags.json) process.stdout.write(`no attempts or decisions under ${root}\n`);
			process.exitCode = okExit;
		});
}

/** Waits for a full pipe to drain, so a slow reader (| less) holds the walk instead of the lines piling up in memory. */
async function writeLine(text: string): Promise<void> {
	if (!process.stdout.write(`${text}\n`)) await new Promise(resolve => process.stdout.once('drain', resolve));
}

function listedFolder(dir: string | undefined): string {
	const root = resolve(dir ?? (existsSync('experiments') ? 'experiments' : '.'));
	const stat = statSync(root, {throwIfNoEntry: false});
	if (stat === undefined) throw new UsageError(`${root}: no such folder`);
	if (!stat.isDirectory()) throw new UsageError(`${root}: not a folder`);
	return root;
}
