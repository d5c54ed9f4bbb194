import {access, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {checkNoLeaks} from '../../leak-check.js';
import {hlab} from '../../hlab.js';
import {scratch} from '../../e2e/experiment-fixture.js';

checkNoLeaks(t);

const done = {tool_calls: [{type: 'function', function: {name: 'done', arguments: {summary: 'done'}}}]};

/** Writes `tasks` (and `prompts`) as a response script and freezes `selection` with it, as a user would. */
async function freezeWith(t: Test, selection: string, tasks: Record<string, unknown[]>, prompts?: Record<string, string>) {
	const dir = await scratch(t);
	const script = join(dir, 'responses.json');
	await writeFile(script, JSON.stringify({schema: 'harness-lab/response-script@1', tasks, ...(prompts === undefined ? {} : {prompts})}));
	const plan = join(dir, 'plan.json');
	const run = await hlab(['eval', '--provider', 'scripted', '--task', selection, '--responses', script, '--freeze', plan]);
	const written = await access(plan).then(() => true, () => false);
	return {status: run.record.exit_code, stderr: run.stderr, written, plan};
}

t.test('a script with no conversation for a selected task is refused at freeze, naming every such task', async t => {
	// The attack is an accident: another plan's script, or one with a typo, which would fail every task at run time.
	const run = await freezeWith(t, 'answer_from_prompt,sales_report,json_config_migration', {answer_from_prompt: [done], sales_reprot: [done], json_config_migration: []});
	t.equal(run.status, 2, run.stderr);
	t.match(run.stderr, /^hlab: the response script \S+ has no conversation for the selected tasks sales_report, json_config_migration\n$/);
	t.equal(run.written, false, 'no plan is written');
});

t.test('script ids that match nothing in the selection are warned about on one line, and the plan is frozen', async t => {
	const run = await freezeWith(t, 'answer_from_prompt', {answer_from_prompt: [done], sales_report: [done], judge: [done], typo_task: [done]}, {judge: 'Is this right?'});
	t.equal(run.status, 0, run.stderr);
	t.equal(run.written, true);
	const lines = run.stderr.trim().split('\n').filter(line => /response script/.test(line));
	t.equal(lines.length, 1, run.stderr);
	t.match(lines[0], /^hlab: the response script \S+ names ids that are not in the selection and will not be played: sales_report, typo_task$/);
	t.notMatch(lines[0], /judge/, 'an id the script opens with a prompt of its own is played, not unmatched');
	const plan = JSON.parse(await readFile(run.plan, 'utf8')) as {provider: {responses?: {path: string}}};
	t.ok(plan.provider.responses !== undefined, 'the script is frozen');
});

t.test('a script that covers the selection exactly freezes without a word about it', async t => {
	const run = await freezeWith(t, 'answer_from_prompt', {answer_from_prompt: [done]});
	t.equal(run.status, 0, run.stderr);
	t.notMatch(run.stderr, /response script/);
});
