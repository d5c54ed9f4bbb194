import {Command} from 'commander';
import {commands} from './command-list.js';

/** Wide enough for the long option terms, and fixed, so the page does not depend on the terminal that wrote it. */
const helpWidth = 100;

/** docs/cli.md: the top-level help, then every command's and subcommand's own help, as commander prints it from the loaded command. */
export async function renderCliReference(): Promise<string> {
	const program = new Command('hlab').description('harness-lab: a local experiment supervisor for agent harnesses').configureHelp({helpWidth});
	for (const entry of Object.values(commands)) (await entry.load())(program);
	const sections = program.commands.flatMap(command => commandSections(command, 'hlab'));
	return [
		'# hlab command reference',
		'',
		'Generated from `cli/command-list.ts` and the commands it loads (`npm run build && npm run docs:cli`); do not edit by hand.',
		'`test/cli/reference.test.ts` fails when this page is stale.',
		'',
		'Every command that writes an output folder or file names it `--out`. The older names are aliases of `--out`',
		'and keep working: `eval --artifacts` and `eval --decision-output`, `--output` (`pair`, `report`, `check ...`),',
		'`plugin describe --types-dir`, `agent --state-dir`. An output path whose parent folder does not exist is refused',
		'(one `hlab:` line, exit 2), never created: make the parent first (`mkdir -p experiments`). Durations are a',
		'number and a unit (`1500ms`, `30s`, `2m`, `1h`); defaults are written in the largest unit that divides them.',
		'',
		helpBlock(program),
		...sections,
	].join('\n');
}

/** A command's section, then its subcommands' (`hlab cartridge eval`, ...). */
function commandSections(command: Command, parent: string): string[] {
	const name = `${parent} ${command.name()}`;
	return [`## ${name}`, '', helpBlock(command), ...command.commands.flatMap(sub => commandSections(sub, name))];
}

function helpBlock(command: Command): string {
	return ['```text', command.helpInformation().trimEnd(), '```', ''].join('\n');
}
