import t from 'tap';
import {GradeAnswer, runEvaluation} from '../../cartridges/index.js';
import {compileCandidate} from '../../engine/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';

checkNoLeaks(t);

const state = {completed: true, status: 'done' as const, reason: null, steps: 2, final_text: 'ok'};
const context = {case_id: 'c', task: {goal: 'g'}, expected: {n: 1}, marks: [], facts: {n: 1}, completed: true, state};

/** A grader module compiled as the loader compiles it. */
async function graderModule(source: string): Promise<{path: string; code: string}> {
	const dir = await tempDir(t);
	const path = join(dir, 'eval_x.ts');
	await writeFile(path, source);
	return {path: 'evals/eval_x.ts', code: (await compileCandidate(path)).code};
}

t.test('a grader that prints, or leaves a timer running, still answers, and its process ends', async t => {
	const module = await graderModule("import {grader} from 'harness-lab/sdk';\nexport const eval_n = grader(['required'], context => {\n\tconsole.log('checking', context.facts.n);\n\tprocess.stdout.write('stray\\n');\n\tsetInterval(() => {}, 1000);\n\treturn context.facts.n === (context.expected as {n: number}).n;\n});\n");
	const run = await runEvaluation({mode: 'grade', module, context, threshold: null, judge: null}, GradeAnswer, {cwd: await tempDir(t)});
	t.ok(run.ok, run.ok ? '' : run.problem);
	if (!run.ok) return;
	t.same(run.answer.results.map(result => [result.name, result.status]), [['eval_n', 'passed']]);
	t.ok(run.process.wall_ms < 10_000, 'it did not wait for its deadline');
	t.same(run.process.survivors, []);
});

t.test('a grader that never returns is ended at the deadline, with everything it started', async t => {
	const module = await graderModule("import {spawn} from 'node:child_process';\nimport {grader} from 'harness-lab/sdk';\nexport const eval_hang = grader(['required'], () => {\n\tspawn('sleep', ['60'], {detached: true, stdio: 'ignore'});\n\treturn new Promise<boolean>(() => {});\n});\n");
	const run = await runEvaluation({mode: 'grade', module, context, threshold: null, judge: null}, GradeAnswer, {cwd: await tempDir(t), limits: {deadlineMs: 1500, stdoutLimit: 1 << 20, stderrLimit: 1 << 20}});
	t.notOk(run.ok);
	if (run.ok) return;
	t.match(run.problem, /the evaluation process failed \(timeout\)/);
	t.equal(run.process.timed_out, true);
	t.same(run.process.survivors, [], 'the detached sleep was ended too');
	t.ok(run.process.killed.length >= 1);
});

t.test('an answer larger than the stdout limit is a failure, never a truncated answer', async t => {
	const module = await graderModule("import {grader} from 'harness-lab/sdk';\nexport const eval_big = grader([], () => ({passed: true, detail: 'x'.repeat(100_000)}));\n");
	const run = await runEvaluation({mode: 'grade', module, context, threshold: null, judge: null}, GradeAnswer, {cwd: await tempDir(t), limits: {deadlineMs: 20_000, stdoutLimit: 10_000, stderrLimit: 10_000}});
	t.notOk(run.ok);
	if (!run.ok) t.match(run.problem, /stdout_limit/);
});

t.test('a bare score passes at the threshold given, at 1 without one', async t => {
	const module = await graderModule("import {grader} from 'harness-lab/sdk';\nexport const eval_score = grader([], () => 0.7);\n");
	const statusAt = async (threshold: number | null): Promise<string | undefined> => {
		const run = await runEvaluation({mode: 'grade', module, context, threshold, judge: null}, GradeAnswer, {cwd: await tempDir(t)});
		return run.ok ? run.answer.results[0]?.status : run.problem;
	};
	t.equal(await statusAt(null), 'failed');
	t.equal(await statusAt(0.7), 'passed');
	t.equal(await statusAt(0.8), 'failed');
});
