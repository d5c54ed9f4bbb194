import {UsageError} from '../../supervisor/input-error.js';
import {outputPath} from '../path-option.js';
import type {FlagGroup} from './eval-mode.js';

/** One name for what a mode writes: `--out`, with each mode's old name (`--artifacts`, `--decision-output`) kept as its alias. */
export const outFlag: FlagGroup = {
	modes: ['plan', 'resume', 'compare'], why: 'names what an attempt or a comparison writes',
	add: command => command.option('--out <path>', 'with --plan or --resume: the attempt\'s new evidence folder (alias --artifacts; --resume DIR defaults to DIR-resumed); with --compare: the decision file, never overwritten (alias --decision-output)', outputPath),
};

/** The path given as `--out` or as the mode's old name for it; both at once is refused, even when they agree. */
export function outOf(flags: {out?: string}, oldName: string, old: string | undefined): string | undefined {
	if (flags.out !== undefined && old !== undefined) throw new UsageError(`give --out or its alias ${oldName}, not both`);
	return flags.out ?? old;
}
