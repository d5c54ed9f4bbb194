import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {retriedEntries} from '../../../supervisor/compare/retried-entries.js';
import {verifySides, type ReportSide} from '../../../supervisor/compare/verify-reports.js';
import {Plan} from '../../../supervisor/plan/plan-schema.js';
import type {Report, TaskResult} from '../../../supervisor/attempt/report/report-schema.js';
import {totalsOf} from '../../../supervisor/attempt/report/totals.js';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

function entry(index: number, id: string, passed: boolean, retries: number | null, infrastructure = false): TaskResult {
	const usage = {turns: 4, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: 400, cost_usd: null};
	const time = retries === null ? null : {requests: 4 + retries, retries, limiter_wait_ms: 0, retry_wait_ms: 10 * retries, wall_ms: 100, working_ms: 100 - 10 * retries};
	return {
		index, task_id: id, status: passed ? 'passed' : 'failed', reason: passed ? null : infrastructure ? 'provider' : 'unfinished', message: null,
		grade: {passed, score: null, details: ''}, outcome: {status: passed ? 'done' : 'failed', reason: null, message: null, steps: 4, usage, final_text: null, stopped_by: null, time, infrastructure},
		usage, wall_ms: 100, evidence: {},
	};
}

function report(side: 'baseline' | 'candidate', digest: string, ids: string[], tasks: TaskResult[]): Report {
	return {
		schema: 'harness-lab/report@1', attempt_id: side, side, timing: 'in-process', host: null, integrity: {label: 'trusted-code', reasons: ['no-sandbox']}, plan_digest: digest, completion: 'finished',
		admission: {admitted: true, differences: []}, candidate: null, task_ids: ids, tasks, totals: totalsOf(tasks), passed: false, problems: [], started_at: '', ended_at: '', attempt_wall_ms: 1,
	};
}

t.test('retried and infrastructure-failed entries are named apart, side by side', async t => {
	const base = report('baseline', 'sha256:x', ['a', 'b', 'c'], [entry(0, 'a', true, 0), entry(1, 'b', true, 2), entry(2, 'c', true, null)]);
	const cand = report('candidate', 'sha256:x', ['a', 'b', 'c'], [entry(0, 'a', false, 3, true), entry(1, 'b', true, 0), entry(2, 'c', true, 0)]);
	t.same(retriedEntries(base, cand), [
		{side: 'baseline', task_id: 'b', provider_retries: 2, infrastructure: false},
		{side: 'candidate', task_id: 'a', provider_retries: 3, infrastructure: true},
	], 'no retry and unknown time are not listed; unknown stays null, never 0');
	t.same(retriedEntries(null, null), []);
});

t.test('a rerun that passed cannot stand beside (or for) the run that failed: the decision never picks the better of two', async t => {
	const dir = await tempDir(t, 'hlab-retried-');
	const frozen = await hlab(['eval', '--task', 'answer_from_prompt,sales_report', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	const plan = Plan.parse(JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')));
	const ids = plan.task_ids;
	const side = (label: 'baseline' | 'candidate', tasks: TaskResult[]): ReportSide => ({label, reportPath: join(dir, label, 'report.json'), dir: join(dir, label), report: report(label, plan.plan_digest, ids, tasks), plan});
	const baseline = side('baseline', ids.map((id, index) => entry(index, id, true, 0)));
	// Only the denominator's check is looked at here (these in-memory reports cite no result.json files).
	const order = async (candidate: ReportSide) => (await verifySides(baseline, candidate)).filter(problem => problem.includes('denominator'));
	t.same(await order(side('candidate', ids.map((id, index) => entry(index, id, true, 0)))), [], 'the honest pair keeps the plan\'s order');
	// The candidate's first entry failed on the infrastructure; a rerun of it passed and is kept beside it.
	const withRerun = side('candidate', [entry(0, ids[0]!, false, 5, true), entry(1, ids[0]!, true, 0), entry(2, ids[1]!, true, 0)]);
	t.same(await order(withRerun), ['candidate: the task results are not the plan\'s ordered denominator']);
	// The rerun appended at the end, the failed run left in place: refused the same way.
	const appended = side('candidate', [entry(0, ids[0]!, false, 5, true), entry(1, ids[1]!, true, 0), entry(2, ids[0]!, true, 0)]);
	t.same(await order(appended), ['candidate: the task results are not the plan\'s ordered denominator']);
});
