import {Command, type Option} from 'commander';
import t from 'tap';
import {commands} from '../../cli/command-list.js';
import {durationText, parseDuration} from '../../cli/parse-units.js';

/** Every option of every command and subcommand, with the command it belongs to. */
function allOptions(command: Command, name: string): Array<{name: string; option: Option}> {
	return [...command.options.map(option => ({name, option})), ...command.commands.flatMap(sub => allOptions(sub, `${name} ${sub.name()}`))];
}

t.test('every duration default in --help is written one way: a whole number in the largest unit that divides it', async t => {
	const program = new Command('hlab');
	for (const entry of Object.values(commands)) (await entry.load())(program);
	const durations = allOptions(program, 'hlab').filter(({option}) => option.flags.includes('<duration>') && option.defaultValue !== undefined);
	t.ok(durations.length >= 4, `${durations.length} duration options with a default`);
	for (const {name, option} of durations) {
		const text = String(option.defaultValue);
		t.equal(text, durationText(parseDuration(text)), `${name} ${option.long}: ${text}`);
	}
});

t.test('durationText picks the largest unit that divides the duration', async t => {
	t.equal(durationText(2000), '2s');
	t.equal(durationText(180_000), '3m');
	t.equal(durationText(7_200_000), '2h');
	t.equal(durationText(1500), '1500ms');
	t.equal(durationText(90_000), '90s');
});
