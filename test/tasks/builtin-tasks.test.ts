import {existsSync} from 'node:fs';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {builtinTasks, getTask, Grade, missingTools} from '../../tasks/index.js';
import {installRoot as projectRoot} from '../../files/install-root.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

async function workspace(t: Test): Promise<string> {
	return join(await tempDir(t, 'hlab-task-'), 'ws');
}

t.test('the suite has its tasks in a fixed order, each findable by id', async t => {
	t.same(builtinTasks.map(task => task.id), ['test_failure_fix', 'multi_file_fix', 'json_config_migration', 'sales_report', 'background_job_poll', 'implement_function', 'answer_from_prompt']);
	for (const task of builtinTasks) t.equal(getTask(task.id), task);
	t.equal(getTask('no_such_task'), null);
	t.equal(new Set(builtinTasks.map(task => task.prompt)).size, builtinTasks.length, 'prompts are distinct, so the scripted provider can tell tasks apart');
});

t.test('every task lists its sources, data files included, and each exists', async t => {
	for (const task of builtinTasks) {
		const files = task.sourceFiles();
		t.ok(files.includes(join(projectRoot, 'tasks', task.id, 'task.ts')), `${task.id}: its definition`);
		t.ok(files.includes(join(projectRoot, 'tasks', task.id, 'reference.ts')), `${task.id}: its reference behaviour`);
		t.ok(files.some(file => file.startsWith(join(projectRoot, 'tasks', task.id, 'files'))), `${task.id}: its setup files`);
		t.same(files.filter(file => !file.startsWith(join(projectRoot, 'tasks', task.id, '/'))), [], `${task.id}: only its own folder (shared code comes from the scorer's module graph)`);
		t.same(files.filter(file => !existsSync(file)), [], `${task.id}: all exist`);
	}
});

t.test('each grader fails on an untouched workspace', async t => {
	for (const task of builtinTasks) {
		const dir = await workspace(t);
		await task.setup(dir);
		const grade = await task.grade(dir, {deadlineMs: 30_000});
		t.ok(Grade.safeParse(grade).success);
		t.equal(grade.passed, false, `${task.id}: ${grade.details.replace(/\n/g, '; ')}`);
		t.ok(grade.score !== null && grade.score < 1);
	}
});

t.test('setup refuses a workspace that is not empty', async t => {
	const dir = await workspace(t);
	await mkdir(dir);
	await writeFile(join(dir, 'stray.txt'), 'x');
	await t.rejects(getTask('sales_report')!.setup(dir), /not empty/);
});

t.test('a test-based grader passes a correct fix and fails edited tests', async t => {
	const task = getTask('test_failure_fix')!;
	const fix = async (dir: string): Promise<void> => {
		const file = join(dir, 'src/discount.js');
		await writeFile(file, (await readFile(file, 'utf8')).replace('cents * percent / 100', 'cents * (100 - percent) / 100'));
	};
	const fixed = await workspace(t);
	await task.setup(fixed);
	await fix(fixed);
	const good = await task.grade(fixed, {deadlineMs: 30_000});
	t.same([good.passed, good.score], [true, 1], good.details);

	const cheated = await workspace(t);
	await task.setup(cheated);
	await writeFile(join(cheated, 'test/discount.test.js'), 'import {test} from \'node:test\';\ntest(\'nothing\', () => {});\n');
	const cheat = await task.grade(cheated, {deadlineMs: 30_000});
	t.equal(cheat.passed, false, 'tests that pass because they were edited do not count');
	t.match(cheat.details, /FAIL: the test file is unchanged/);
});

t.test('the one-turn task grades the recorded answer and an untouched workspace', async t => {
	const task = getTask('answer_from_prompt')!;
	const grade = async (finalText: string | null, change?: (dir: string) => Promise<void>): Promise<Grade> => {
		const dir = await workspace(t);
		await task.setup(dir);
		await change?.(dir);
		return task.grade(dir, {deadlineMs: 30_000, finalText});
	};
	t.same((await grade('It finished at 12:25.')).passed, true);
	t.match(await grade('It finished at 12:15.'), {passed: false, details: /names 12:15/}, 'a wrong time fails');
	t.match(await grade('Either 12:25 or 12:26.'), {passed: false}, 'hedging between two times fails');
	t.match(await grade(null), {passed: false, details: /no final answer/}, 'no answer fails');
	t.match(await grade('12:25', dir => writeFile(join(dir, 'answer.txt'), '12:25')), {passed: false, details: /added: answer.txt/}, 'a new file fails');
	t.match(await grade('12:25', dir => writeFile(join(dir, 'README.md'), 'edited')), {passed: false, details: /README.md differs/}, 'an edit fails');
});

t.test('the grader\'s test run has a deadline', async t => {
	const task = getTask('implement_function')!;
	const dir = await workspace(t);
	await task.setup(dir);
	await writeFile(join(dir, 'src/slugify.js'), 'export function slugify() { for (;;) {} }\n');
	const started = performance.now();
	const grade = await task.grade(dir, {deadlineMs: 1500});
	t.equal(grade.passed, false);
	t.match(grade.details, /deadline/);
	t.ok(performance.now() - started < 10_000);
});

t.test('required tools are looked up on PATH', async t => {
	t.same(missingTools(['node', 'hlab-no-such-executable']), ['hlab-no-such-executable']);
	t.same(missingTools(['sh'], '/nonexistent-dir'), ['sh']);
});
