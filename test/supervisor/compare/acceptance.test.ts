import t from 'tap';
import {applyAcceptance} from '../../../supervisor/compare/acceptance.js';
import {AcceptancePolicy} from '../../../supervisor/plan/experiment-policy.js';
import type {Report, TaskResult} from '../../../supervisor/attempt/report/report-schema.js';
import {totalsOf} from '../../../supervisor/attempt/report/totals.js';

function task(index: number, passed: boolean, turns: number, tokens: number | null, wall: number, score: number | null = null): TaskResult {
	return {
		index, task_id: `t${index}`, status: passed ? 'passed' : 'failed', reason: null, message: passed ? null : 'grader said no',
		grade: {passed, score, details: ''}, outcome: null,
		usage: {turns, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: tokens, cost_usd: null},
		wall_ms: wall, evidence: {},
	};
}

function report(side: 'baseline' | 'candidate', tasks: TaskResult[]): Report {
	return {
		schema: 'harness-lab/report@1', attempt_id: side, side, timing: 'in-process', host: null, integrity: {label: 'trusted-code', reasons: ['no-sandbox']}, plan_digest: 'sha256:x', completion: 'finished',
		admission: {admitted: true, differences: []}, candidate: null, task_ids: tasks.map(item => item.task_id), tasks,
		totals: totalsOf(tasks), passed: true, problems: [], started_at: '', ended_at: '', attempt_wall_ms: 1,
	};
}

const policy = (fields: object = {}) => AcceptancePolicy.parse(fields);

t.test('fewer tokens with every task passed and duration within the ratio is accepted', async t => {
	const result = applyAcceptance(policy({improvement: 'tokens'}), report('baseline', [task(0, true, 4, 400, 100)]), report('candidate', [task(0, true, 3, 300, 110)]));
	t.equal(result.accepted, true);
	t.match(result.checks.find(check => check.rule === 'improvement')?.message, /300 < baseline 400/);
});

t.test('a failed candidate task rejects under require_all_pass and names the task', async t => {
	const result = applyAcceptance(policy(), report('baseline', [task(0, true, 4, 400, 100), task(1, true, 4, 400, 100)]), report('candidate', [task(0, true, 2, 200, 50), task(1, false, 2, 200, 50)]));
	t.equal(result.accepted, false);
	t.ok(result.checks.some(check => check.rule === 'require_all_pass' && !check.satisfied && check.message.includes('candidate failed task t1')));
});

t.test('unknown usage never shows an improvement', async t => {
	const result = applyAcceptance(policy({improvement: 'tokens'}), report('baseline', [task(0, true, 4, 400, 100)]), report('candidate', [task(0, true, 3, null, 100)]));
	t.equal(result.accepted, false);
	t.match(result.checks.find(check => check.rule === 'improvement')?.message, /unknown on the candidate/);
});

t.test('a slower candidate beyond the ratio is rejected even when it is cheaper', async t => {
	const result = applyAcceptance(policy({max_duration_ratio: 1.25}), report('baseline', [task(0, true, 4, 400, 100)]), report('candidate', [task(0, true, 2, 200, 130)]));
	t.equal(result.accepted, false);
	t.equal(result.duration_ratio, 1.3);
});

t.test('turns-or-tokens accepts fewer turns alone; turns rejects equal turns', async t => {
	const base = report('baseline', [task(0, true, 4, 400, 100)]);
	t.equal(applyAcceptance(policy({improvement: 'turns-or-tokens'}), base, report('candidate', [task(0, true, 3, 500, 100)])).accepted, true);
	t.equal(applyAcceptance(policy({improvement: 'turns'}), base, report('candidate', [task(0, true, 4, 100, 100)])).accepted, false);
});

t.test('quality needs more passes or a higher known score; non-regression needs no improvement', async t => {
	const base = report('baseline', [task(0, true, 4, 400, 100, 0.5), task(1, false, 4, 400, 100, 0)]);
	const better = report('candidate', [task(0, true, 4, 400, 100, 0.5), task(1, true, 4, 400, 100, 1)]);
	t.equal(applyAcceptance(policy({improvement: 'quality', require_all_pass: false}), base, better).accepted, true);
	t.equal(applyAcceptance(policy({improvement: 'non-regression', require_all_pass: false}), base, base).accepted, true);
	const regressed = report('candidate', [task(0, false, 1, 10, 10, 0), task(1, true, 1, 10, 10, 1)]);
	t.equal(applyAcceptance(policy({improvement: 'non-regression', require_all_pass: false}), base, regressed).accepted, false);
});

t.test('supervised wall times replace the reports\' own timings in the duration rule', async t => {
	const base = report('baseline', [task(0, true, 4, 400, 100)]);
	// The candidate's report claims a fast run; the supervisor's process records say it was slow.
	const fast = report('candidate', [task(0, true, 2, 200, 10)]);
	const result = applyAcceptance(policy({improvement: 'tokens'}), base, fast, {baseline: 1000, candidate: 2000, source: 'supervised host wall time (process.json)'});
	t.equal(result.duration_ratio, 2);
	t.equal(result.accepted, false);
	t.match(result.checks.find(check => check.rule === 'max_duration_ratio')?.message, /process\.json.*2000 ms is 2\.00x the baseline's 1000 ms/);
});

t.test('a supervised side with a task that never launched has an unknown wall time, never a short one', async t => {
	const base = report('baseline', [task(0, true, 4, 400, 100)]);
	const result = applyAcceptance(policy({improvement: 'tokens'}), base, report('candidate', [task(0, true, 2, 200, 100)]), {baseline: 1000, candidate: null, source: 'supervised host wall time (process.json)'});
	t.equal(result.duration_ratio, null);
	t.equal(result.checks.find(check => check.rule === 'max_duration_ratio')?.satisfied, false);
});

/** A task whose engine waited on the provider: `waits` ms of its wall time were rate limits and retries. */
function waited(index: number, wall: number, waits: number | null, infrastructure: boolean | null = false): TaskResult {
	const base = task(index, true, 4, 400, wall);
	const time = waits === null ? null : {requests: 3, retries: 2, limiter_wait_ms: waits / 2, retry_wait_ms: waits / 2, wall_ms: wall, working_ms: wall - waits};
	return {...base, outcome: {status: 'done', reason: null, message: null, steps: 4, usage: base.usage!, final_text: 'done', stopped_by: null, time, infrastructure}};
}

t.test('an infrastructure failure on either side rejects with "rerun", never as the harness\'s fault', async t => {
	const base = report('baseline', [waited(0, 100, 0), waited(1, 100, 0)]);
	const unlucky = report('candidate', [waited(0, 90, 0), {...waited(1, 8000, 7900, true), status: 'failed', reason: 'provider', message: 'the provider stayed unavailable'}]);
	const result = applyAcceptance(policy({improvement: 'non-regression'}), base, unlucky);
	t.equal(result.accepted, false);
	const check = result.checks.find(item => item.rule === 'infrastructure')!;
	t.equal(check.satisfied, false);
	t.match(check.message, /^infrastructure failures: rerun .*baseline none; candidate t1/);
	t.equal(applyAcceptance(policy({improvement: 'non-regression'}), base, base).checks.find(item => item.rule === 'infrastructure')?.satisfied, true);
});

t.test('duration "working" compares wall time less provider waits, and says so', async t => {
	// The candidate ran while the endpoint rate-limited it: 1,600 ms of wall time, 1,000 of them waiting.
	const base = report('baseline', [waited(0, 500, 0)]);
	const limited = report('candidate', [waited(0, 1600, 1000)]);
	const wall = applyAcceptance(policy({improvement: 'non-regression'}), base, limited);
	t.equal(wall.accepted, false, 'on wall time the unlucky candidate looks 3.2x slower');
	const working = applyAcceptance(policy({improvement: 'non-regression', duration: 'working'}), base, limited);
	t.equal(working.duration_ratio, 1.2);
	t.equal(working.accepted, true);
	t.match(working.checks.find(check => check.rule === 'max_duration_ratio')?.message, /working time .*600 ms is 1\.20x the baseline's 500 ms/);
	const unknown = applyAcceptance(policy({improvement: 'non-regression', duration: 'working'}), base, report('candidate', [waited(0, 600, null)]));
	t.equal(unknown.checks.find(check => check.rule === 'max_duration_ratio')?.satisfied, false, 'unknown waits never give a working time');
});

/** `trials` entries `<id>#k` per task, passing where `passes(task, trial)` says so. */
function trials(tasks: number, trialsPerTask: number, passes: (task: number, trial: number) => boolean, turns = 4): TaskResult[] {
	const results: TaskResult[] = [];
	for (let trial = 1; trial <= trialsPerTask; trial += 1) {
		for (let id = 0; id < tasks; id += 1) {
			const index = results.length;
			results.push({...task(index, passes(id, trial), turns, 400, 100), task_id: `t${id}#${trial}`});
		}
	}
	return results;
}

t.test('with min_confidence, a candidate that wins by one trial on one task is not significant and not accepted', async t => {
	const base = report('baseline', trials(4, 5, () => false));
	const oneMore = report('candidate', trials(4, 5, (task, trial) => task === 0 && trial === 1));
	const loose = applyAcceptance(policy({improvement: 'quality', require_all_pass: false}), base, oneMore);
	t.equal(loose.accepted, true, 'on the sums alone one more pass is a gain');
	const strict = applyAcceptance(policy({improvement: 'quality', require_all_pass: false, min_confidence: 0.95}), base, oneMore);
	t.equal(strict.accepted, false);
	t.match(strict.checks.find(check => check.rule === 'improvement')?.message, /no significant gain in passes at 95%: candidate alone passed 1, baseline alone 0 of 20 pairs, exact sign-flip test over tasks p = 1\.00/);
});

t.test('with min_confidence, a candidate that wins on most trials of most tasks is accepted, with its numbers', async t => {
	const base = report('baseline', trials(7, 5, () => false));
	const broad = report('candidate', trials(7, 5, (task, trial) => task < 6 && trial > 1));
	const result = applyAcceptance(policy({improvement: 'quality', require_all_pass: false, min_confidence: 0.95}), base, broad);
	t.equal(result.accepted, true, result.checks.map(check => check.message).join('\n'));
	// Six tasks won of seven: two of the 64 sign assignments reach the observed net.
	t.match(result.checks.find(check => check.rule === 'improvement')?.message, /more passes, significant at 95%: candidate alone passed 24, baseline alone 0 of 35 pairs, exact sign-flip test over tasks p = 0\.0313/);
});

t.test('with min_confidence, the same wins over too few tasks are not significant, however many trials', async t => {
	const base = report('baseline', trials(4, 5, () => false));
	const broad = report('candidate', trials(4, 5, (task, trial) => task < 3 && trial > 1));
	const result = applyAcceptance(policy({improvement: 'quality', require_all_pass: false, min_confidence: 0.95}), base, broad);
	t.equal(result.accepted, false);
	// The sign test over the 12 pairs said p = 0.000488, counting the trials of one task as independent.
	t.match(result.checks.find(check => check.rule === 'improvement')?.message, /no significant gain in passes at 95%: candidate alone passed 12, baseline alone 0 of 20 pairs, exact sign-flip test over tasks p = 0\.250/);
});

t.test('with min_confidence, fewer turns count only when the interval of the paired difference is below zero', async t => {
	const base = report('baseline', trials(3, 4, () => true, 5));
	const clearlyFewer = report('candidate', trials(3, 4, () => true, 3));
	const fewer = applyAcceptance(policy({improvement: 'turns', min_confidence: 0.95}), base, clearlyFewer);
	t.equal(fewer.accepted, true, fewer.checks.map(check => check.message).join('\n'));
	t.match(fewer.checks.find(check => check.rule === 'improvement')?.message, /turns: fewer, significant at 95%: mean difference -2\.00 per trial/);
	// One trial of twelve a turn shorter: the sums improve, the interval still reaches zero.
	const barely = report('candidate', trials(3, 4, () => true, 5).map((item, index) => index === 0 ? {...item, usage: {...item.usage!, turns: 4}} : item));
	const verdict = applyAcceptance(policy({improvement: 'turns', min_confidence: 0.95}), base, {...barely, totals: totalsOf(barely.tasks)});
	t.equal(verdict.accepted, false);
	t.match(verdict.checks.find(check => check.rule === 'improvement')?.message, /not significantly fewer at 95%/);
});

t.test('min_effect: a token saving within the margin is not an improvement, one beyond it is, and both say the numbers', async t => {
	const base = report('baseline', [task(0, true, 4, 1000, 100), task(1, true, 4, 1000, 100)]);
	const slight = report('candidate', [task(0, true, 4, 990, 100), task(1, true, 4, 990, 100)]);
	const within = applyAcceptance(policy({improvement: 'tokens', min_effect: {tokens: {relative: 0.05}}}), base, slight);
	t.equal(within.accepted, false);
	t.equal(within.checks.find(check => check.rule === 'improvement')?.message, 'total tokens: not fewer beyond the margin: 1980 vs baseline 2000, a saving of 10.00 per trial (1.0%), not more than min_effect 5.0% of the baseline\'s 1000.0 per trial (50.00 per trial)');
	t.equal(applyAcceptance(policy({improvement: 'tokens'}), base, slight).accepted, true, 'without min_effect the same saving is accepted');
	t.equal(applyAcceptance(policy({improvement: 'tokens', min_effect: {tokens: {absolute: 9}}}), base, slight).accepted, true);
	t.equal(applyAcceptance(policy({improvement: 'tokens', min_effect: {tokens: {absolute: 10}}}), base, slight).accepted, false, 'equal to the margin does not exceed it');
});

t.test('min_effect with min_confidence: the whole interval must lie beyond the margin', async t => {
	const tasks = (turns: number) => Array.from({length: 8}, (_, index) => task(index, true, turns, 400, 100));
	const base = report('baseline', tasks(6));
	const cand = report('candidate', tasks(4));
	const beyond = applyAcceptance(policy({improvement: 'turns', min_confidence: 0.95, min_effect: {turns: {absolute: 1}}}), base, cand);
	t.equal(beyond.accepted, true);
	t.match(beyond.checks.find(check => check.rule === 'improvement')?.message, /fewer beyond the margin, significant at 95%: .*all of it below -1\.00 \(min_effect 1 per trial\)/);
	const within = applyAcceptance(policy({improvement: 'turns', min_confidence: 0.95, min_effect: {turns: {absolute: 2}}}), base, cand);
	t.equal(within.accepted, false);
	t.equal(within.insufficient, null, 'a saving no larger than the margin is not a case for more trials');
});

t.test('min_effect is absent from a policy that does not set it, so older plans keep their digests', async t => {
	t.notOk('min_effect' in policy());
	t.throws(() => AcceptancePolicy.parse({min_effect: {}}), /min_effect names turns, tokens, or both/);
	t.throws(() => AcceptancePolicy.parse({min_effect: {turns: {absolute: 1, relative: 0.1}}}));
});
