import type {Command} from 'commander';
import {UsageError} from '../supervisor/input-error.js';
import {failedExit} from './exit-codes.js';
import {addOtlpFlags, traceOptionsOf, type OtlpFlags} from './otlp-flags.js';
import {absolutePath} from './path-option.js';

export function registerExport(program: Command): void {
	const command = program
		.command('export')
		.description("a recorded attempt in other tools' formats: ATIF trajectories (docs/atif.md), OpenTelemetry traces over OTLP/HTTP (docs/otlp.md)");
	command
		.command('atif')
		.description('write trajectory.json (ATIF v1.7) into every recorded task folder of an attempt that has none, e.g. evidence older than the format')
		.argument('<dir>', "an attempt's evidence directory", absolutePath)
		.action(async (dir: string) => {
			// The exporters are loaded when a subcommand runs, not by the command's --help.
			const {exportAttemptTrajectories} = await import('../supervisor/attempt/index.js');
			const done = await exportAttemptTrajectories(dir);
			process.stdout.write(`${count(done.written.length, 'trajectory', 'trajectories')} written, ${done.kept.length} kept as they were, ${count(done.none.length, 'task', 'tasks')} without messages\n`);
		});
	addOtlpFlags(command
		.command('otlp')
		.description("send every recorded task of an attempt as one OpenTelemetry trace over OTLP/HTTP; exit 1 when the collector did not take them")
		.argument('<dir>', "an attempt's evidence directory", absolutePath))
		.action(async (dir: string, flags: OtlpFlags) => {
			const options = traceOptionsOf(flags);
			if (options === null) throw new UsageError('export otlp needs --otlp URL (or HLAB_OTLP_ENDPOINT)');
			const {exportAttemptTraces} = await import('../supervisor/attempt/index.js');
			const sent = await exportAttemptTraces(dir, options);
			if (sent.problem !== null) {
				process.stderr.write(`hlab: ${sent.problem}\n`);
				process.exitCode = failedExit;
				return;
			}
			process.stdout.write(`${count(sent.tasks, 'task trace', 'task traces')} sent to ${options.endpoint}\n`);
		});
}

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
