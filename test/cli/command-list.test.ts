import {join} from 'node:path';
import {Command, Help} from 'commander';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';
import {commands, namedCommand, registerOutlines} from '../../cli/command-list.js';
import {checkNoLeaks} from '../leak-check.js';
import {modulesLoadedBy as loadedBy, packagesOf} from '../loaded-modules.js';

checkNoLeaks(t);

const hlab = join(installRoot, 'bin', 'hlab.js');
const newProgram = (): Command => new Command('hlab').description('harness-lab: a local experiment supervisor for agent harnesses');

t.test('the outlines say of each command what its loaded registration says', async t => {
	const loaded = newProgram();
	for (const entry of Object.values(commands)) (await entry.load())(loaded);
	const outlined = newProgram();
	registerOutlines(outlined);
	for (const command of loaded.commands) {
		const entry = commands[command.name()];
		t.equal(entry?.description, command.description(), `${command.name()}: the description`);
		t.equal(entry?.term, new Help().subcommandTerm(command), `${command.name()}: the term`);
	}
	t.same(outlined.commands.map(command => command.name()), loaded.commands.map(command => command.name()), 'the same commands, in the same order');
	t.equal(outlined.helpInformation(), loaded.helpInformation(), 'the top-level help is the same text');
});

t.test('a command line names the command it runs, or none', async t => {
	const argv = (...rest: string[]): string[] => ['node', 'hlab.js', ...rest];
	t.equal(namedCommand(argv('eval', '--plan', 'p.json')), 'eval');
	t.equal(namedCommand(argv('help', 'host-worker')), 'host-worker');
	t.equal(namedCommand(argv('--help')), null);
	t.equal(namedCommand(argv()), null);
	t.equal(namedCommand(argv('toString')), null, 'an inherited property is no command');
});

async function modulesLoadedBy(args: string[]): Promise<string[]> {
	return (await loadedBy(args)).urls;
}

t.test('hlab --help loads no command module and no package but commander', async t => {
	const loaded = await modulesLoadedBy(['--help']);
	t.same(packagesOf(loaded), ['commander']);
	const commandFiles = Object.keys(commands).map(name => `/cli/${name}.js`);
	t.same(loaded.filter(url => commandFiles.some(file => url.endsWith(file))), [], 'no command file');
});

t.test('hlab host-worker --help loads host-worker alone of the command modules', async t => {
	const loaded = await modulesLoadedBy(['host-worker', '--help']);
	const commandFiles = Object.keys(commands).filter(name => name !== 'host-worker').map(name => `/cli/${name}.js`);
	t.same(loaded.filter(url => commandFiles.some(file => url.endsWith(file))), []);
	t.ok(loaded.some(url => url.endsWith('/cli/host-worker.js')));
});

t.test('the help, a command\'s help and a refusal still work from the outlines', async t => {
	const help = await runInGroup({argv: [process.execPath, hlab, '--help'], deadlineMs: 60_000});
	t.equal(help.record.exit_code, 0);
	t.match(help.stdout!.toString(), /supervise \[options\] <command\.\.\.>\s+run any command/);
	const evalHelp = await runInGroup({argv: [process.execPath, hlab, 'help', 'eval'], deadlineMs: 60_000});
	t.equal(evalHelp.record.exit_code, 0);
	t.match(evalHelp.stdout!.toString(), /Usage: hlab eval \[options\]/);
	const unknown = await runInGroup({argv: [process.execPath, hlab, 'evl'], deadlineMs: 60_000});
	t.equal(unknown.record.exit_code, 2);
	t.match(unknown.stderr!.toString(), /^hlab: unknown command 'evl'.*\(run hlab --help for usage\)/s);
});
