import type {Command} from 'commander';
import {UsageError} from '../supervisor/input-error.js';
import {absolutePath, outputPath} from './path-option.js';

export function registerSnapshotSource(program: Command): void {
	program
		.command('snapshot-source')
		.description('archive the exact source state of a checkout: its commit, the complete patch against it (git diff HEAD --binary) and every untracked, not-ignored file, with a manifest of digests')
		.requiredOption('--out <file.tar>', 'a new archive file (an existing one is refused)', outputPath)
		.option('--dir <checkout>', 'a folder inside the checkout (default: the working directory)', absolutePath)
		.option('--json', 'print the manifest')
		.action(async (flags: {out: string; dir?: string; json?: boolean}) => {
			// Loaded when the command runs, not by its --help.
			const {describeLeftOut, harnessCheckoutRoot, snapshotSource, SourceError} = await import('../supervisor/source/index.js');
			try {
				const onLeftOut = (leftOut: Parameters<typeof describeLeftOut>[0]): void => {
					const line = describeLeftOut(leftOut);
					if (line !== null) process.stderr.write(`hlab: ${line}\n`);
				};
				const manifest = await snapshotSource({dir: await harnessCheckoutRoot(flags.dir ?? process.cwd()), out: flags.out, onLeftOut});
				if (flags.json) process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
				else process.stdout.write(`${flags.out}: commit ${manifest.commit}${manifest.dirty ? ', dirty' : ''}, patch ${manifest.diff.size} bytes, ${manifest.untracked.length} untracked files, source ${manifest.source_digest}\n`);
			} catch (error) {
				// A failed git call is not the caller's input; the rest of SourceError is.
				if (error instanceof SourceError && error.reason !== 'git_failed') throw new UsageError(error.message, error.reason);
				throw error;
			}
		});
}
