import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import t from 'tap';
import {shellQuote} from '../../process/shell-quote.js';
import {shimArgv} from '../../process/start-shim.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const run = (argv: string[]) => spawnSync(argv[0]!, argv.slice(1), {encoding: 'utf8'});

t.test('with no steps the command runs as it is, with no shell between', async t => {
	t.same(shimArgv([], ['node', '-e', '0']), ['node', '-e', '0']);
});

t.test('the steps run in order, then the command takes the shim\'s pid with its arguments untouched', async t => {
	const dir = await tempDir(t);
	const log = path.join(dir, 'log');
	const steps = [
		{command: `echo first $$ > ${shellQuote(log)}`, failure: 'first'},
		{command: `echo second >> ${shellQuote(log)}`, failure: 'second'},
	];
	const odd = ['a b', `it's`, '"$HOME"', '$(id)', '*', ''];
	const out = run(shimArgv(steps, [process.execPath, '-e', 'console.log(JSON.stringify([process.pid, ...process.argv.slice(1)]))', ...odd]));
	t.equal(out.status, 0, out.stderr);
	const [pid, ...args] = JSON.parse(out.stdout) as [number, ...string[]];
	t.same(args, odd, 'every argument arrives as it was given');
	t.equal(readFileSync(log, 'utf8'), `first ${pid}\nsecond\n`, 'both steps ran, in the process that became the command');
});

t.test('a failing step ends the shim with 125 and its reason, and nothing after it runs', async t => {
	const dir = await tempDir(t);
	const marker = path.join(dir, 'ran');
	const steps = [
		{command: 'false', failure: `can't do the first step`},
		{command: `touch ${shellQuote(marker)}`, failure: 'second'},
	];
	const out = run(shimArgv(steps, ['touch', marker]));
	t.equal(out.status, 125);
	t.equal(out.stderr, `hlab: can't do the first step\n`, 'the reason, quotes and all');
	t.throws(() => readFileSync(marker), {code: 'ENOENT'}, 'neither the next step nor the command ran');
});
