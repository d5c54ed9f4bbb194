import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import type {Command} from 'commander';
import {ControllerIdentity, describeIssues} from '../controller-protocol/index.js';
import {UsageError} from '../supervisor/input-error.js';
import {fail, failedExit} from './exit-codes.js';
import {absolutePath, outputPath} from './path-option.js';

export function registerController(program: Command): void {
	const controller = program
		.command('controller')
		.description('experiment controllers: build one (the sample, or your own with --entry), check a pinned identity');
	controller
		.command('build')
		.description('bundle an experiment controller (the sample, or --entry FILE), write DIR/experiment-controller.mjs and DIR/controller.json, and print the identity')
		.requiredOption('--out <dir>', 'directory for the bundle and its identity', outputPath)
		.option('--entry <file.ts>', 'your controller\'s entry file, importing hlab/sdk and Node builtins (e.g. from hlab init controller); default: the sample', absolutePath)
		.action(async (flags: {out: string; entry?: string}) => {
			if (flags.entry !== undefined && !existsSync(flags.entry)) throw new UsageError(`--entry ${flags.entry} does not exist`, 'controller');
			// The builder is loaded when a subcommand runs, not by the command's --help.
			const {buildController, buildSampleController} = await import('../supervisor/controller/index.js');
			let identity;
			try {
				identity = flags.entry === undefined ? await buildSampleController(flags.out) : await buildController(flags.entry, flags.out);
			} catch (error) {
				return fail(`cannot build the ${flags.entry === undefined ? 'sample ' : ''}controller: ${(error as Error).message}`);
			}
			process.stdout.write(`${JSON.stringify(identity, null, 2)}\n`);
		});
	controller
		.command('verify')
		.description('check that every file pinned by a controller identity still has its digest')
		.argument('<controller.json>', 'the identity file', absolutePath)
		.action(async (file: string) => {
			const identity = await readIdentity(file);
			const {verifyIdentityFiles} = await import('../supervisor/controller/index.js');
			const mismatches = await verifyIdentityFiles(identity);
			for (const mismatch of mismatches) process.stderr.write(`hlab: ${mismatch.reason}: ${mismatch.message}\n`);
			if (mismatches.length > 0) process.exitCode = failedExit;
			else process.stdout.write(`${Object.keys(identity.files).length} pinned files match\n`);
		});
}

/** The identity file, or bad input that says why it cannot be one. */
async function readIdentity(file: string): Promise<ControllerIdentity> {
	let json: unknown;
	try {
		json = JSON.parse(await readFile(file, 'utf8'));
	} catch (error) {
		throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, 'controller');
	}
	const parsed = ControllerIdentity.safeParse(json);
	if (!parsed.success) throw new UsageError(`${file} is not a controller identity: ${describeIssues(parsed.error)}`, 'controller');
	return parsed.data;
}
