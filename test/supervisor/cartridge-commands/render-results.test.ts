import t from 'tap';
import type {CaseRecord, RunRecord} from '../../../cartridges/case-record.js';
import {renderRun} from '../../../supervisor/cartridge-commands/render-results.js';

// Only the fields the rendering reads: a person's view of records, no run needed.
const grader = {status: 'failed', module: 'evals/eval_report.ts', name: 'totals', marks: [], score: 1 / 3, detail: 'pass: report.md exists\nFAIL: the total is 14 (got 12)'};
const record = {
	case_id: 'summary', verdict: {passed: false, failures: []}, graders: [grader],
	outcome: {status: 'done', reason: null, steps: 3, usage: {total_tokens: 1200}},
} as unknown as CaseRecord;
const run = {cartridge: {name: 'report_agent', fingerprint: {digest: 'sha256:x'}}, failures: [], passed: false, cases: [{verdict: {passed: false}}]} as unknown as RunRecord;

t.test('a grader\'s score is rounded and its detail lines are indented below it, not glued onto one line', async t => {
	const lines = renderRun(run, [record], 'out').split('\n');
	const at = lines.findIndex(line => line.includes('#totals'));
	t.same(lines.slice(at, at + 2), [
		'  failed    evals/eval_report.ts#totals score 0.333: pass: report.md exists',
		'      FAIL: the total is 14 (got 12)',
	]);
	t.notMatch(lines.join('\n'), /0\.3333/);
});
