import t from 'tap';
import {applyAcceptance} from '../../../supervisor/compare/acceptance.js';
import {improvementPValue} from '../../../supervisor/compare/compare-candidates.js';
import {holmAdjust} from '../../../supervisor/statistics/holm.js';
import {AcceptancePolicy} from '../../../supervisor/plan/experiment-policy.js';
import type {Report, TaskResult} from '../../../supervisor/attempt/report/report-schema.js';
import {totalsOf} from '../../../supervisor/attempt/report/totals.js';

function side(label: 'baseline' | 'candidate', tasks: number, trials: number, turnsOf: (task: number, k: number) => number): Report {
	const results: TaskResult[] = [];
	for (let k = 1; k <= trials; k += 1) {
		for (let task = 0; task < tasks; task += 1) {
			const turns = turnsOf(task, k);
			results.push({
				index: results.length, task_id: `t${task}#${k}`, status: 'passed', reason: null, message: null, grade: {passed: true, score: null, details: ''}, outcome: null,
				usage: {turns, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: 100 * turns, cost_usd: null}, wall_ms: 100, evidence: {},
			});
		}
	}
	return {
		schema: 'harness-lab/report@1', attempt_id: label, side: label, timing: 'in-process', host: null, integrity: {label: 'trusted-code', reasons: ['no-sandbox']}, plan_digest: 'sha256:x', completion: 'finished',
		admission: {admitted: true, differences: []}, candidate: null, task_ids: results.map(item => item.task_id), tasks: results,
		totals: totalsOf(results), passed: true, problems: [], started_at: '', ended_at: '', attempt_wall_ms: 1,
	};
}

const base = side('baseline', 8, 2, () => 10);
// Savings of 1 and 3 turns (one more on the second trial): mean 2.5, interval [−3.25, −1.75].
const cand = side('candidate', 8, 2, (task, k) => 10 - (task < 4 ? 1 : 3) - (k === 2 ? 1 : 0));
const rule = (margin: number | null) => AcceptancePolicy.parse({improvement: 'turns', min_confidence: 0.95, ...(margin === null ? {} : {min_effect: {turns: {absolute: margin}}})});

t.test('with min_effect the family corrects the p-value of a saving beyond the margin, not of any saving', async t => {
	t.equal(applyAcceptance(rule(1.5), base, cand).accepted, true, 'alone, the interval lies below −1.5');
	const againstZero = improvementPValue(rule(null), base, cand)!;
	const beyondMargin = improvementPValue(rule(1.5), base, cand)!;
	t.equal(againstZero, 1e-4, 'against zero: the resamples\' floor');
	t.ok(beyondMargin > 0.025 && beyondMargin <= 0.05, `beyond the margin: p = ${beyondMargin}, significant alone at 95%`);
	// Two such candidates: Holm doubles the smaller p-value. Against zero both would stay accepted; beyond the margin neither does.
	t.ok(holmAdjust([againstZero, againstZero]).every(p => p <= 0.05));
	t.ok(holmAdjust([beyondMargin, beyondMargin]).every(p => p > 0.05), 'the margin\'s p-values, corrected, miss 95%: insufficient in the family');
});

t.test('a mean saving within the margin gives the family nothing to accept', async t => {
	t.equal(improvementPValue(rule(3), base, cand), 1, 'the mean (−2.5) does not pass −3');
	t.equal(improvementPValue(AcceptancePolicy.parse({improvement: 'non-regression', min_confidence: 0.95}), base, cand), null, 'non-regression is not in the family');
	t.equal(improvementPValue(AcceptancePolicy.parse({improvement: 'turns'}), base, cand), null, 'no min_confidence, no p-value');
});
