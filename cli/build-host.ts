import type {Command} from 'commander';
import {installRoot} from '../files/install-root.js';
import {UsageError} from '../supervisor/input-error.js';
import {outputPath} from './path-option.js';

export function registerBuildHost(program: Command): void {
	program
		.command('build-host')
		.description('build a host executable of this checkout into a new folder: DIR/hlab (a launcher of its own copy of the code, run by this machine\'s Node) and DIR/build.json (commit, dirty flag, file digests, node path and digest, overall digest)')
		.requiredOption('--out <dir>', 'a new folder for the build (an existing one is refused)', outputPath)
		.option('--json', 'print build.json')
		.action(async (flags: {out: string; json?: boolean}) => {
			// Loaded when the command runs, not by its --help.
			const {buildHost, harnessCheckoutRoot, SourceError} = await import('../supervisor/source/index.js');
			try {
				const record = await buildHost({root: await harnessCheckoutRoot(installRoot), out: flags.out});
				if (flags.json) process.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
				else process.stdout.write(`${flags.out}/${record.launcher}: ${record.digest} (commit ${record.source.commit}${record.source.dirty ? ', dirty' : ''}, ${Object.keys(record.files).length} files, node ${record.node.version})\n`);
			} catch (error) {
				// A failed build or git call is not the caller's input; the rest of SourceError is.
				if (error instanceof SourceError && error.reason !== 'build_failed' && error.reason !== 'git_failed') throw new UsageError(error.message, error.reason);
				throw error;
			}
		});
}
