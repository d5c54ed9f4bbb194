import {cp, mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';
import {ownIdentity} from '../../process/process-identity.js';
import {readBootId} from '../../process/proc-table.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const candidate = join(installRoot, 'examples', 'candidates', 'step-budget.ts');

interface Line {
	kind: string;
	path: string;
	plan: string | null;
	side: string | null;
	candidate: string | null;
	status: string | null;
	when: string | null;
	problem: string | null;
}

const jsonLines = (stdout: string): Line[] => stdout.trim().split('\n').filter(line => line.length > 0).map(line => JSON.parse(line) as Line);

t.test('real attempts and a decision, then a crash, a live attempt, half-written files and a FIFO: one line each, no crash, no hang', async t => {
	const dir = await tempDir(t, 'hlab-ls-');
	const step = async (args: string[], status: number): Promise<void> => {
		const run = await hlab(args, {cwd: dir, timeoutMs: 180_000});
		t.equal(run.record.exit_code, status, `hlab ${args.slice(0, 4).join(' ')}: ${run.stderr}`);
	};
	await step(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], 0);
	await mkdir(join(dir, 'experiments'));
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'experiments/base'], 0);
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'experiments/cand', '--candidate', candidate], 0);
	await step(['eval', '--compare', 'experiments/base/report.json,experiments/cand/report.json', '--decision-output', 'experiments/decision.json'], 1);
	const experiments = join(dir, 'experiments');
	const planDigest = (JSON.parse(await readFile(join(experiments, 'base', 'attempt.json'), 'utf8')) as {plan_digest: string}).plan_digest;
	const short = planDigest.replace(/^sha256:/, '').slice(0, 12);

	// A crashed attempt: its evidence without a report, and a lock whose holder is gone (same pid, another start time).
	const identity = ownIdentity()!;
	const lock = (startTime: number): string => JSON.stringify({schema: 'harness-lab/attempt-lock@1', attempt_id: 'x', process_marker: 'HLAB_X', pid: process.pid, start_time: startTime, boot_id: readBootId()});
	await copyWithout(join(experiments, 'base'), join(experiments, 'crashed'), 'report.json');
	await writeFile(join(experiments, 'crashed', 'lock.json'), lock(identity.startTime + 1));
	// A live one: the lock names this very test process.
	await copyWithout(join(experiments, 'base'), join(experiments, 'live'), 'report.json');
	await writeFile(join(experiments, 'live', 'lock.json'), lock(identity.startTime));
	// Half-written: attempt.json cut short, a report that is not ours, a decision cut after its schema.
	await mkdir(join(experiments, 'torn'));
	await cp(join(experiments, 'base', 'plan.json'), join(experiments, 'torn', 'plan.json'));
	await writeFile(join(experiments, 'torn', 'attempt.json'), '{"schema": "harness-lab/attempt@1", "attempt_id": "a');
	await writeFile(join(experiments, 'torn', 'report.json'), '[1, 2, 3]\n');
	await writeFile(join(experiments, 'torn-decision.json'), '{\n  "schema": "harness-lab/decision@1",\n  "decided_at": "20');
	// A FIFO where a report should be: reading it would block for ever.
	await copyWithout(join(experiments, 'base'), join(experiments, 'zfifo'), 'report.json');
	t.equal((await runInGroup({argv: ['mkfifo', join(experiments, 'zfifo', 'report.json')], deadlineMs: 10_000})).record.exit_code, 0);
	// Not evidence: a plan alone, and JSON that is no decision.
	await writeFile(join(experiments, 'notes.json'), '{"schema": "something/else@1"}');

	const json = await hlab(['ls', '--json'], {cwd: dir, timeoutMs: 30_000});
	t.equal(json.record.exit_code, 0, json.stderr);
	t.equal(json.record.timed_out ?? false, false, 'the FIFO did not hang the listing');
	const lines = jsonLines(json.stdout);
	t.same(lines.map(line => [line.kind, line.path, line.status]), [
		['decision', 'decision.json', 'reject'],
		['decision', 'torn-decision.json', null],
		['attempt', 'base', 'passed'],
		['attempt', 'cand', 'passed'],
		['attempt', 'crashed', 'unfinished'],
		['attempt', 'live', 'running'],
		['attempt', 'torn', null],
		['attempt', 'zfifo', null],
	], 'the default folder is ./experiments; in name order, a folder\'s files before its folders');
	const [decision, tornDecision, base, cand, , , torn, fifo] = lines;
	t.match(base, {plan: short, side: 'baseline', candidate: null, problem: null});
	t.match(cand, {plan: short, side: 'candidate', candidate: candidate, problem: null});
	t.ok(Number.isFinite(Date.parse(base!.when!)), 'when is a time');
	t.match(decision, {plan: short, side: null, candidate: join(experiments, 'cand'), problem: null});
	t.equal(tornDecision!.problem, 'half-written or not a decision');
	t.equal(torn!.problem, 'attempt.json is half-written or not ours; report.json is half-written or not ours');
	t.match(fifo!.problem, /report\.json not readable \(not a regular file\)/);

	const text = await hlab(['ls', 'experiments'], {cwd: dir, timeoutMs: 30_000});
	t.equal(text.record.exit_code, 0, text.stderr);
	const [header, , , first] = text.stdout.split('\n');
	t.match(header, /^KIND\s+PATH\s+PLAN\s+SIDE\s+CANDIDATE\s+STATUS\s+WHEN$/);
	t.match(first, new RegExp(`^attempt\\s+base\\s+${short}\\s+baseline\\s+-\\s+passed\\s+\\d{4}-`));
	t.match(text.stdout, /^attempt\s+torn\s.*\(attempt\.json is half-written/m);
});

t.test('thousands of attempts stream in order, each line from its own small files', async t => {
	const dir = await tempDir(t, 'hlab-ls-many-');
	const count = 2000;
	const attempt = (index: number): string => JSON.stringify({side: 'baseline', plan_digest: 'sha256:abc', started_at: `2026-01-01T00:00:${String(index % 60).padStart(2, '0')}Z`});
	for (let index = 0; index < count; index += 1) {
		const folder = join(dir, `a${String(index).padStart(5, '0')}`);
		await mkdir(folder);
		await writeFile(join(folder, 'plan.json'), '{}');
		await writeFile(join(folder, 'attempt.json'), attempt(index));
	}
	const run = await hlab(['ls', '--json', dir], {timeoutMs: 60_000});
	t.equal(run.record.exit_code, 0, run.stderr);
	const lines = jsonLines(run.stdout);
	t.equal(lines.length, count);
	t.same(lines.slice(0, 2).map(line => [line.path, line.plan, line.status]), [['a00000', 'abc', 'unfinished'], ['a00001', 'abc', 'unfinished']]);
});

t.test('bad input: one line, exit 2; an empty folder says so', async t => {
	const dir = await tempDir(t, 'hlab-ls-bad-');
	await writeFile(join(dir, 'file'), '');
	for (const [arg, message] of [['missing', /no such folder/], ['file', /not a folder/]] as const) {
		const run = await hlab(['ls', arg], {cwd: dir});
		t.equal(run.record.exit_code, 2);
		t.match(run.stderr, message);
		t.equal(run.stderr.trim().split('\n').length, 1);
	}
	const empty = await hlab(['ls'], {cwd: dir});
	t.equal(empty.record.exit_code, 0);
	t.equal(empty.stdout, `no attempts or decisions under ${dir}\n`, 'without ./experiments, the working directory');
});

async function copyWithout(from: string, to: string, left: string): Promise<void> {
	await cp(from, to, {recursive: true, filter: source => !source.endsWith(`/${left}`)});
}
