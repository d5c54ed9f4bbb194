import {existsSync} from 'node:fs';
import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {freeze, scratch} from '../e2e/experiment-fixture.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {startHlab, waitFor} from './stop-signals-fixture.js';

checkNoLeaks(t);

const candidates = join(installRoot, 'examples', 'candidates');
const freezeFlags = ['--task', 'answer_from_prompt,sales_report', '--max-steps', '12', '--timeout', '1m'];
const readJson = async (path: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;

t.test('one command freezes, runs the baseline and two candidates, compares and writes the page, each file as the steps by hand write it', async t => {
	const dir = await scratch(t);
	const out = join(dir, 'exp');
	const run = await hlab(['experiment', ...freezeFlags, '--candidate', join(candidates, 'step-budget.ts'), '--candidate', join(candidates, 'repeated-observation.ts'), '--out', out], {cwd: dir, timeoutMs: 300_000});
	t.not(run.record.exit_code, 2, run.stderr);
	t.same((await readdir(out)).sort(), ['baseline', 'candidate-repeated-observation', 'candidate-step-budget', 'decision.html', 'decision.json', 'plan.json']);
	const hand = await hlab(['eval', ...freezeFlags, '--freeze', join(dir, 'hand.json')], {cwd: dir});
	t.equal(hand.record.exit_code, 0, hand.stderr);
	const {created_at: _a, plan_digest: _b, ...frozen} = await readJson(join(out, 'plan.json'));
	const {created_at: _c, plan_digest: _d, ...byHand} = await readJson(join(dir, 'hand.json'));
	t.same(frozen, byHand, 'the plan is the one eval --freeze writes with the same flags');
	const plan = await readFile(join(out, 'plan.json'));
	for (const side of ['baseline', 'candidate-step-budget', 'candidate-repeated-observation']) {
		t.same(await readFile(join(out, side, 'plan.json')), plan, `${side} ran the folder's plan`);
		const verify = await hlab(['verify', join(out, side)]);
		t.equal(verify.record.exit_code, 0, `${side} verifies: ${verify.stdout}`);
	}
	t.equal((await readJson(join(out, 'baseline', 'report.json')))['side'], 'baseline');
	const reports = ['baseline', 'candidate-step-budget', 'candidate-repeated-observation'].map(side => join(out, side, 'report.json'));
	const compare = await hlab(['eval', '--compare', reports.join(','), '--json']);
	t.equal(run.record.exit_code, compare.record.exit_code, 'the exit status is the comparison\'s');
	const verdicts = (JSON.parse(compare.stdout) as {candidates: {verdict: string}[]}).candidates.map(candidate => candidate.verdict.toUpperCase());
	const last = run.stdout.trim().split('\n').at(-1)!;
	t.equal(last, `experiment ${out}: step-budget ${verdicts[0]}, repeated-observation ${verdicts[1]} (decision ${join(out, 'decision.json')}); exit ${compare.record.exit_code}`);
	t.equal((await readJson(join(out, 'decision.json')))['schema'], 'harness-lab/decisions@1', 'one decision over the family, as eval --compare B,C1,C2 writes it');
});

t.test('a given plan is copied whole; SIGTERM in the candidate stops the experiment cleanly: its report written, nothing compared', async t => {
	const dir = await scratch(t);
	const planPath = await freeze({dir, tasks: 'answer_from_prompt,sales_report', policy: {concurrency: 1}});
	const mark = join(dir, 'stalled');
	const stall = join(dir, 'stall.ts');
	await writeFile(stall, `import * as fs from 'node:fs';
export default {
	initialize: () => ({protocol_version: 1, id: 'stall', capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}]}),
	invokeCapability() {
		fs.writeFileSync(${JSON.stringify(mark)}, '');
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
		return {output: {stop: false}};
	},
};
`);
	const out = join(dir, 'exp');
	const run = await startHlab(['experiment', '--plan', planPath, '--candidate', stall, '--out', out]);
	t.ok(await waitFor(() => existsSync(mark), 120_000), 'the candidate is running');
	process.kill(run.pid, 'SIGTERM');
	const {record, stderr} = await run.ended;
	t.equal(record.exit_code, 1, stderr?.toString() ?? '');
	t.match(stderr?.toString() ?? '', /^hlab: SIGTERM: stopping: .*no further side starts and nothing is compared/m);
	t.match(stderr?.toString() ?? '', /^hlab: the experiment stopped in the candidate stall \(.*hlab eval --resume .*candidate runs the rest of it\); no decision; what was written stays in /m);
	t.same(await readFile(join(out, 'plan.json')), await readFile(planPath), 'the plan\'s exact bytes');
	t.equal((await readJson(join(out, 'baseline', 'report.json')))['completion'], 'finished');
	t.equal((await readJson(join(out, 'candidate', 'report.json')))['completion'], 'interrupted');
	t.notOk(existsSync(join(out, 'decision.json')), 'nothing was compared');
});

t.test('bad input is refused in one line before anything is written', async t => {
	const dir = await scratch(t);
	const candidate = join(candidates, 'step-budget.ts');
	const withPlan = await hlab(['experiment', '--plan', join(dir, 'p.json'), '--task', 'sales_report', '--max-steps', '3', '--candidate', candidate, '--out', join(dir, 'a')]);
	t.equal(withPlan.record.exit_code, 2);
	t.match(withPlan.stderr, /^hlab: --plan runs a frozen plan; --task, --max-steps are frozen into a plan: give them without --plan$/m);
	const none = await hlab(['experiment', '--task', 'sales_report', '--out', join(dir, 'b')]);
	t.equal(none.record.exit_code, 2);
	t.match(none.stderr, /needs at least one --candidate FILE or --candidate-host EXE/);
	await mkdir(join(dir, 'c'));
	const exists = await hlab(['experiment', '--task', 'sales_report', '--candidate', candidate, '--out', join(dir, 'c')]);
	t.equal(exists.record.exit_code, 2);
	t.match(exists.stderr, /c already exists; an experiment writes a new folder \(--out DIR\)/);
	await writeFile(join(dir, 'broken.ts'), 'export default {');
	const broken = await hlab(['experiment', '--task', 'sales_report', '--candidate', join(dir, 'broken.ts'), '--out', join(dir, 'd')]);
	t.equal(broken.record.exit_code, 2);
	t.notOk(existsSync(join(dir, 'd')), 'a candidate that does not compile is found before the folder is made');
	const unknownTask = await hlab(['experiment', '--task', 'no_such_task', '--candidate', candidate, '--out', join(dir, 'e')]);
	t.equal(unknownTask.record.exit_code, 2, unknownTask.stderr);
	t.notOk(existsSync(join(dir, 'e')), 'a freeze that refuses its flags leaves no folder behind');
	const noPlan = await hlab(['experiment', '--plan', join(dir, 'missing.json'), '--candidate', candidate, '--out', join(dir, 'f')]);
	t.equal(noPlan.record.exit_code, 2, noPlan.stderr);
	t.match(noPlan.stderr, /^hlab: cannot read plan .*missing\.json/m);
	t.same((await readdir(dir)).sort(), ['broken.ts', 'c']);
});
