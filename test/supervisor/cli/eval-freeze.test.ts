import {existsSync} from 'node:fs';
import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

const scratch = (t: Test): Promise<string> => tempDir(t, 'hlab-freeze-');

t.test('eval --repeat freezes each task n times and says so in one line', async t => {
	const dir = await scratch(t);
	const run = await hlab(['eval', '--task', 'answer_from_prompt', '--repeat', '4', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(run.record.exit_code, 0, run.stderr);
	t.match(run.stdout, /tasks \(4\): answer_from_prompt, each 4 times \(entries <id>#1\.\.#4\)/);
	const plan = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')) as {task_ids: string[]};
	t.same(plan.task_ids, ['answer_from_prompt#1', 'answer_from_prompt#2', 'answer_from_prompt#3', 'answer_from_prompt#4']);
});

t.test('a repeat that is not a positive whole number is bad input, and no plan is written', async t => {
	const dir = await scratch(t);
	for (const value of ['0', '-1', '1.5', 'many']) {
		const run = await hlab(['eval', '--task', 'answer_from_prompt', '--repeat', value, '--freeze', 'plan.json'], {cwd: dir});
		t.equal(run.record.exit_code, 2, `--repeat ${value}`);
		t.match(run.stderr.trim(), /^hlab: --repeat must be a positive whole number, got '.*'$/);
	}
	t.notOk(existsSync(join(dir, 'plan.json')));
});

t.test('a controller plan cannot repeat: the controller owns its schedule', async t => {
	const dir = await scratch(t);
	const run = await hlab(['eval', '--experiment-controller', 'controller.json', '--repeat', '2', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(run.record.exit_code, 2);
	t.match(run.stderr.trim(), /^hlab: --repeat cannot be used with --experiment-controller/);
	t.notOk(existsSync(join(dir, 'plan.json')));
});

t.test('a plan is never overwritten: freezing onto an existing file is bad input and the plan stays byte for byte', async t => {
	const dir = await scratch(t);
	const first = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(first.record.exit_code, 0, first.stderr);
	const bytes = await readFile(join(dir, 'plan.json'));
	const again = await hlab(['eval', '--task', 'sales_report', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(again.record.exit_code, 2);
	// Paths are resolved against the working directory at the edge, so the message names the plan absolutely.
	t.match(again.stderr, /^hlab: cannot write plan \/\S*\/plan\.json: [^\n]*EEXIST[^\n]*\n$/);
	t.same(await readFile(join(dir, 'plan.json')), bytes, 'the first plan is untouched');
	t.same((await readdir(dir)).sort(), ['plan.json'], 'no temporary file is left behind');
});
