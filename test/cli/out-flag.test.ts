import {existsSync} from 'node:fs';
import {readdir} from 'node:fs/promises';
import {join} from 'node:path';
import {Command, type Option} from 'commander';
import t from 'tap';
import {commands} from '../../cli/command-list.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

/** Every option of every command and subcommand, with the command it belongs to. */
function allOptions(command: Command, name: string): Array<{name: string; option: Option}> {
	return [...command.options.map(option => ({name, option})), ...command.commands.flatMap(sub => allOptions(sub, `${name} ${sub.name()}`))];
}

const program = new Command('hlab');
for (const entry of Object.values(commands)) (await entry.load())(program);
const options = allOptions(program, 'hlab');
const oldNames = ['--artifacts', '--output', '--decision-output', '--types-dir', '--state-dir'];

t.test('every old name of an output flag is an alias of --out, and says so in the help', async t => {
	for (const old of oldNames) {
		const found = options.filter(({option}) => option.long === old);
		t.ok(found.length > 0, `${old} is still taken`);
		for (const {name, option} of found) {
			const command = name === 'hlab eval' ? 'eval' : name;
			// Beside --out in one option (same value), or, in eval, where --out is shared by two modes, a flag of its own.
			t.ok(option.short === '--out' || (command === 'eval' && options.some(other => other.name === name && other.option.long === '--out')), `${name} ${old} goes with --out`);
			t.match(option.description, /alias of --out/, `${name} ${old}: its help names it an alias of --out`);
		}
	}
	const writers = options.filter(({option}) => option.long === '--out' || option.short === '--out').map(({name}) => name);
	for (const command of ['hlab eval', 'hlab pair', 'hlab report', 'hlab check process-cleanup', 'hlab check controller', 'hlab check pair-recovery', 'hlab plugin describe', 'hlab agent', 'hlab search run', 'hlab cartridge eval', 'hlab cartridge replay', 'hlab snapshot-source', 'hlab build-host', 'hlab controller build']) {
		t.ok(writers.includes(command), `${command} takes --out`);
	}
});

t.test('--out and the old names write the same things; both at once is refused', async t => {
	const dir = await tempDir(t, 'hlab-out-flag-');
	const run = (args: string[]) => hlab(args, {cwd: dir, timeoutMs: 180_000});
	const frozen = await run(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json']);
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	for (const [flag, out] of [['--out', 'a'], ['--artifacts', 'b']]) {
		const attempt = await run(['eval', '--plan', 'plan.json', flag!, out!]);
		t.equal(attempt.record.exit_code, 0, `eval --plan ${flag}: ${attempt.stderr}`);
		t.ok(existsSync(join(dir, out!, 'report.json')), `eval --plan ${flag} writes the attempt there`);
	}
	for (const [flag, out] of [['--out', 'd1.json'], ['--decision-output', 'd2.json']]) {
		const compare = await run(['eval', '--compare', 'a/report.json,b/report.json', flag!, out!]);
		t.ok(existsSync(join(dir, out!)), `eval --compare ${flag} writes the decision (exit ${compare.record.exit_code}: ${compare.stderr})`);
	}
	for (const [flag, out] of [['--out', 'a.html'], ['--output', 'b.html']]) {
		const page = await run(['report', 'a', flag!, out!]);
		t.equal(page.record.exit_code, 0, page.stderr);
		t.ok(existsSync(join(dir, out!)), `report ${flag} writes the page there`);
	}
	for (const [flag, out] of [['--out', 'types-a'], ['--types-dir', 'types-b']]) {
		const types = await run(['plugin', 'describe', flag!, out!, '--json']);
		t.equal(types.record.exit_code, 0, types.stderr);
		t.ok(existsSync(join(dir, out!, 'sdk', 'index.d.ts')), `plugin describe ${flag} writes the declarations there`);
	}
	for (const [flag, out] of [['--out', 'state-a'], ['--state-dir', 'state-b']]) {
		const agent = await run(['agent', '--task', 'answer_from_prompt', '--provider', 'scripted', '--workspace', `${out!}-workspace`, flag!, out!]);
		t.equal(agent.record.exit_code, 0, agent.stderr);
		t.ok(existsSync(join(dir, out!, 'journal.jsonl')), `agent ${flag} writes the journal there`);
	}
	for (const args of [['eval', '--plan', 'plan.json', '--out', 'c', '--artifacts', 'c2'], ['eval', '--compare', 'a/report.json,b/report.json', '--out', 'd3.json', '--decision-output', 'd4.json']]) {
		const both = await run(args);
		t.equal(both.record.exit_code, 2, `${args.slice(0, 2).join(' ')} with --out and its alias: exit 2`);
		t.match(both.stderr, /^hlab: give --out or its alias --\S+, not both\n$/);
	}
	t.notOk(existsSync(join(dir, 'c')) || existsSync(join(dir, 'c2')) || existsSync(join(dir, 'd3.json')), 'nothing written by a refused command line');
});

t.test('an output path whose parent folder does not exist is refused in one line with exit 2, and no folder is made', async t => {
	const dir = await tempDir(t, 'hlab-out-parent-');
	const missing = (leaf: string): string => join(dir, 'typo', 'nested', leaf);
	const lines: Array<[string, string[]]> = [
		['eval --plan --out', ['eval', '--plan', 'plan.json', '--out', missing('attempt')]],
		['eval --plan --artifacts', ['eval', '--plan', 'plan.json', '--artifacts', missing('attempt')]],
		['eval --freeze', ['eval', '--task', 'answer_from_prompt', '--freeze', missing('plan.json')]],
		['eval --compare --decision-output', ['eval', '--compare', 'a/report.json,b/report.json', '--decision-output', missing('d.json')]],
		['pair --output', ['pair', '--plan', 'plan.json', '--baseline', 'x', '--candidate', 'y', '--output', missing('pair')]],
		['report --out', ['report', 'a', '--out', missing('page.html')]],
		['check process-cleanup --output', ['check', 'process-cleanup', '--output', missing('check')]],
		['check controller --out', ['check', 'controller', '--hlab', 'x', '--plan', 'p', '--out', missing('check')]],
		['check pair-recovery --out', ['check', 'pair-recovery', '--out', missing('check')]],
		['plugin describe --types-dir', ['plugin', 'describe', '--types-dir', missing('types')]],
		['agent --state-dir', ['agent', '--task', 'answer_from_prompt', '--state-dir', missing('state')]],
		['agent --workspace', ['agent', '--task', 'answer_from_prompt', '--workspace', missing('workspace')]],
		['search run --out', ['search', 'run', '--policy', 'p.json', '--out', missing('search')]],
		['cartridge eval --out', ['cartridge', 'eval', 'x.cartridge', '--out', missing('runs')]],
		['snapshot-source --out', ['snapshot-source', '--out', missing('s.tar')]],
		['build-host --out', ['build-host', '--out', missing('host')]],
		['controller build --out', ['controller', 'build', '--out', missing('controller')]],
	];
	for (const [what, args] of lines) {
		const run = await hlab(args, {cwd: dir});
		t.equal(run.record.exit_code, 2, `${what}: exit 2`);
		t.match(run.stderr, /^hlab: \S+: its parent folder \S+\/typo\/nested does not exist \(create it first, e\.g\. mkdir -p \S+\)\n$/, `${what}: one line`);
	}
	t.strictSame(await readdir(dir), [], 'no folder was made');
});
