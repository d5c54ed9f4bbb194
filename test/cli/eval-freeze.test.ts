import {existsSync} from 'node:fs';
import {readdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

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

t.test('a hypothesis is frozen into the plan, covered by its digest, and shown with the plan and the decision', async t => {
	const dir = await scratch(t);
	const hypothesis = 'the step budget changes nothing on a one-turn task';
	const frozen = await hlab(['eval', '--task', 'answer_from_prompt', '--hypothesis', hypothesis, '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	t.match(frozen.stdout, `  hypothesis: ${hypothesis}\n`);
	const plan = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')) as {hypothesis: string};
	t.equal(plan.hypothesis, hypothesis);

	const baseline = await hlab(['eval', '--plan', 'plan.json', '--artifacts', 'a'], {cwd: dir});
	t.equal(baseline.record.exit_code, 0, baseline.stderr);
	const candidate = await hlab(['eval', '--plan', 'plan.json', '--side', 'candidate', '--artifacts', 'b'], {cwd: dir});
	t.equal(candidate.record.exit_code, 0, candidate.stderr);
	const compared = await hlab(['eval', '--compare', 'a/report.json,b/report.json', '--decision-output', 'decision.json'], {cwd: dir});
	t.match(compared.stdout, `\nhypothesis: ${hypothesis}\ndecision: `);
	t.equal(JSON.parse(await readFile(join(dir, 'decision.json'), 'utf8')).hypothesis, hypothesis);

	await writeFile(join(dir, 'edited.json'), JSON.stringify({...plan, hypothesis: 'something the results happened to show'}));
	const edited = await hlab(['eval', '--plan', 'edited.json', '--artifacts', 'c'], {cwd: dir});
	t.equal(edited.record.exit_code, 1);
	t.match(JSON.parse(await readFile(join(dir, 'c', 'report.json'), 'utf8')).admission, {admitted: false, differences: [/plan digest/]}, 'a hypothesis rewritten after freezing is not admitted');

	const misplaced = await hlab(['eval', '--plan', 'plan.json', '--hypothesis', hypothesis, '--artifacts', 'd'], {cwd: dir});
	t.equal(misplaced.record.exit_code, 2);
	t.match(misplaced.stderr, /--hypothesis is frozen into a plan: give it with --freeze/);
});
