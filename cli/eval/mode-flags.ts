import type {Command, Option} from 'commander';
import {UsageError} from '../../supervisor/input-error.js';
import type {EvalMode, FlagGroup, ModeName} from './eval-mode.js';

/** What registration declared: the flag that chooses each mode, and the group each other flag belongs to. */
export interface Declaration {
	triggers: {mode: EvalMode; key: string}[];
	flags: {names: string; key: string; group: FlagGroup}[];
}

const flagOf = (mode: ModeName): string => `--${mode}`;

/** Adds the modes' flags and the shared groups, each under a help heading naming the modes that take it, and returns who owns what. */
export function declareFlags(command: Command, modes: EvalMode[], shared: FlagGroup[]): Declaration {
	command.optionsGroup('Modes (give exactly one):');
	const triggers = modes.map(mode => ({mode, key: added(command, mode.addTrigger)[0]!.attributeName()}));
	const groups = [...modes.flatMap(mode => mode.own ?? []), ...shared];
	const flags = groups.flatMap(group => {
		command.optionsGroup(group.modes.length === modes.length ? 'With any mode:' : `With ${group.modes.map(flagOf).join(' or ')}:`);
		return byKey(added(command, group.add)).map(([key, names]) => ({names, key, group}));
	});
	command.optionsGroup('Options:');
	return {triggers, flags};
}

/** The one mode a command line chose; none, two, or a flag of another mode is refused in one line, from the declaration alone. */
export function chosenMode(command: Command, declaration: Declaration): EvalMode {
	// A default is not a choice: only what the command line gave counts.
	const given = (key: string): boolean => command.getOptionValueSource(key) === 'cli';
	const modes = declaration.triggers.filter(trigger => given(trigger.key)).map(trigger => trigger.mode);
	if (modes.length !== 1) {
		const got = modes.length === 0 ? 'none' : modes.map(mode => flagOf(mode.name)).join(', ');
		throw new UsageError(`choose exactly one of ${declaration.triggers.map(trigger => flagOf(trigger.mode.name)).join(', ')} (got ${got})`);
	}
	const mode = modes[0]!;
	const stray = declaration.flags.find(flag => given(flag.key) && !flag.group.modes.includes(mode.name));
	if (stray !== undefined) throw new UsageError(`${stray.names} ${stray.group.why}: give it with ${stray.group.modes.map(flagOf).join(' or ')}`);
	return mode;
}

/** The options an `add` function declares, found by what it appends to the command. */
function added(command: Command, add: (command: Command) => Command): readonly Option[] {
	const before = command.options.length;
	add(command);
	return command.options.slice(before);
}

/** Options that set the same value (`--html` and `--no-html`) are one flag to refuse: key and names. */
function byKey(options: readonly Option[]): [string, string][] {
	const names = new Map<string, string[]>();
	for (const option of options) names.set(option.attributeName(), [...(names.get(option.attributeName()) ?? []), option.long ?? option.flags]);
	return [...names].map(([key, list]) => [key, list.join(' or ')]);
}
