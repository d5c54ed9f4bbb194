import type {Command, OptionValues} from 'commander';

/** The six things `hlab eval` does; the flag that chooses one has the same name (`--freeze`, `--plan`, ...). */
export type ModeName = 'freeze' | 'plan' | 'compare' | 'recover' | 'resume' | 'list';

/** Flags declared together: the modes that take them, and what a refusal says of one given to another mode. */
export interface FlagGroup {
	modes: readonly ModeName[];
	/** Completes `--flag ${why}: give it with --mode`, the one line that refuses it elsewhere. */
	why: string;
	add: (command: Command) => Command;
}

/** One mode of `hlab eval`: the flag that chooses it, the flags only it takes, and what it does with them. */
export interface EvalMode {
	name: ModeName;
	/** Adds the choosing flag, whose attribute is the mode's name. */
	addTrigger: (command: Command) => Command;
	/** The flags only this mode takes, or null when it takes none of its own. */
	own: FlagGroup | null;
	/** Runs the mode with the parsed flags (the command tells a given flag from a default) and returns the exit status. */
	run(flags: OptionValues, command: Command): Promise<number>;
}
