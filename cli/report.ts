import {dirname, join, resolve} from 'node:path';
import type {Command} from 'commander';
import type {ReportPaths} from '../supervisor/report/index.js';
import {UsageError} from '../supervisor/input-error.js';
import {okExit} from './exit-codes.js';
import {outputPath} from './path-option.js';

interface ReportFlags {
	compare?: string;
	decision?: string;
	output?: string;
}

export function registerReport(program: Command): void {
	program
		.command('report')
		.description('write one self-contained HTML page for an attempt (its evidence directory) or a comparison')
		.argument('[dir]', "an attempt's evidence directory")
		.option('--compare <baseline,candidate>', 'two report.json files to show side by side')
		.option('--decision <file>', 'the decision.json written by hlab eval --compare (with --compare)')
		.option('--out, --output <file>', 'the page to write (never overwritten); default report.html beside the input (--output: alias of --out)', outputPath)
		.action(async (dir: string | undefined, flags: ReportFlags) => {
			const {paths, output} = resolveInputs(dir, flags);
			// The page's engine is loaded when the command runs, not by its --help or a refusal of its flags.
			const {writeReport} = await import('../supervisor/report/index.js');
			await writeReport(paths, output);
			process.stdout.write(`report written to ${output}\n`);
			process.exitCode = okExit;
		});
}

function resolveInputs(dir: string | undefined, flags: ReportFlags): {paths: ReportPaths; output: string} {
	if (dir !== undefined && flags.compare !== undefined) throw new UsageError('give an evidence directory or --compare, not both');
	if (dir !== undefined) {
		if (flags.decision !== undefined) throw new UsageError('--decision goes with --compare');
		return {paths: {attempt: dir}, output: resolve(flags.output ?? join(dir, 'report.html'))};
	}
	if (flags.compare === undefined) throw new UsageError('give an evidence directory, or --compare baseline/report.json,candidate/report.json --decision decision.json');
	const reports = flags.compare.split(',').map(path => path.trim()).filter(path => path.length > 0);
	if (reports.length !== 2) throw new UsageError('--compare needs exactly two reports: baseline/report.json,candidate/report.json');
	if (flags.decision === undefined) throw new UsageError('--compare needs --decision decision.json (written by hlab eval --compare --out)');
	return {paths: {baseline: reports[0]!, candidate: reports[1]!, decision: flags.decision}, output: resolve(flags.output ?? join(dirname(flags.decision), 'report.html'))};
}
