import type {Command, OptionValues} from 'commander';
import {compareMode} from './compare.js';
import {freezeMode} from './freeze.js';
import {listMode} from './list.js';
import {chosenMode, declareFlags} from './mode-flags.js';
import {recoverMode} from './recover.js';
import {resumeMode} from './resume.js';
import {runMode} from './run.js';
import {sharedFlags} from './shared-flags.js';

/** `hlab eval`: six modes chosen by one flag each; which flags go with which mode is declared in the mode files and shared-flags.ts. */
export function registerEval(program: Command): void {
	const command = program
		.command('eval')
		.description('freeze a plan, run an attempt of it, compare two reports, recover a crashed attempt, resume one, or list tasks');
	const declaration = declareFlags(command, [freezeMode, runMode, compareMode, recoverMode, resumeMode, listMode], sharedFlags);
	command.action(async (flags: OptionValues) => {
		process.exitCode = await chosenMode(command, declaration).run(flags, command);
	});
}
