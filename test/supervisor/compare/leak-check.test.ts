import t from 'tap';
import {buildReport} from '../../../supervisor/attempt/report/build-report.js';
import {failedResult} from '../../../supervisor/attempt/task-core/failed-result.js';
import type {AttemptLeaks, Report} from '../../../supervisor/attempt/report/report-schema.js';
import {leakCheck} from '../../../supervisor/compare/leak-check.js';

function report(side: Report['side'], leaks: AttemptLeaks | null): Report {
	return buildReport({
		attemptId: side, side, timing: 'in-process', host: null, integrity: {label: 'trusted-code', reasons: ['no-sandbox']}, plan: {plan_digest: 'sha256:p', task_ids: ['a']},
		completion: 'finished', admission: {admitted: true, differences: []}, candidate: null,
		results: [failedResult(0, 'a', {reason: 'timeout', message: 'x'})], problems: [], leaks,
		startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.000Z', wallMs: 1000,
	});
}

const none: AttemptLeaks = {backend: 'cgroup', limits: '', leaked: [], survivors: []};
const some = (count: number): AttemptLeaks => ({
	...none,
	leaked: Array.from({length: count}, (_, index) => ({pid: 100 + index, argv: ['sleep', '300'], comm: 'sleep', found: 'attempt-cgroup' as const, ended: 'cgroup-kill' as const, task_index: 0})),
});

t.test('a candidate that leaked where the baseline did not fails the leaks check, naming what it left', async t => {
	const check = leakCheck(report('baseline', none), report('candidate', some(4)));
	t.equal(check?.rule, 'leaks');
	t.equal(check?.satisfied, false);
	t.match(check?.message, /the candidate leaked where the baseline did not: 4 processes .* cgroup backend: 100 \(sleep 300\), 101 \(sleep 300\), 102 \(sleep 300\), \.\.\./);
});

t.test('an unaudited baseline is said to be unaudited, not clean', async t => {
	t.match(leakCheck(report('baseline', null), report('candidate', some(1)))?.message, /where the baseline was not audited: 1 process outlived/);
});

t.test('when both leaked the line is there but does not decide; a clean or unaudited candidate adds no line', async t => {
	t.equal(leakCheck(report('baseline', some(2)), report('candidate', some(1)))?.satisfied, true);
	t.equal(leakCheck(report('baseline', some(2)), report('candidate', none)), null);
	t.equal(leakCheck(report('baseline', none), report('candidate', null)), null);
});
