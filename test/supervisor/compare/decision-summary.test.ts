import t from 'tap';
import {Decision} from '../../../supervisor/compare/decision-schema.js';
import {decisionSummary} from '../../../supervisor/compare/decision-summary.js';

function decision(baseline: object | null, candidate: object | null): Decision {
	return Decision.parse({
		schema: 'harness-lab/decision@1', decided_at: '', plan_digest: null, decision: 'reject', checks: [], policy: null, duration_ratio: null,
		baseline: {report: 'b/report.json', attempt_id: 'b', totals: null, integrity: baseline},
		candidate: {report: 'c/report.json', attempt_id: 'c', totals: null, integrity: candidate},
		tasks: [],
	});
}

t.test('the decision shows both sides\' integrity: a contained baseline never stands for a trusted-code candidate', async t => {
	const text = decisionSummary(decision({label: 'contained', reasons: []}, {label: 'trusted-code', reasons: ['in-process-candidate']}), null);
	t.match(text, /^integrity: baseline contained$/m);
	t.match(text, /^ +candidate trusted-code \(in-process candidate code runs in the supervisor's threads\)$/m);
	t.notMatch(text, /candidate contained/);
});

t.test('a side without a readable report, or a decision from before the labels, is unknown, never contained', async t => {
	t.match(decisionSummary(decision(null, {label: 'contained', reasons: []}), null), /^integrity: baseline unknown \(no readable report\)$/m);
	const {integrity: _b, ...baseline} = decision(null, null).baseline;
	const old = Decision.parse({...decision(null, null), baseline});
	t.equal(old.baseline.integrity, null);
});
