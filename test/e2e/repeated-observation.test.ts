import {join} from 'node:path';
import t from 'tap';
import {builtinTasks} from '../../tasks/index.js';
import {compareReports} from '../../supervisor/compare/compare-reports.js';
import {checkNoLeaks} from '../leak-check.js';
import {attempt, attemptByCli, freeze, repeatedObservation, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

const polling = builtinTasks.filter(task => /poll/i.test(task.id)).map(task => task.id);
const others = builtinTasks.filter(task => !/poll/i.test(task.id)).map(task => task.id);

t.test('the suite has a polling task and others', async t => {
	t.ok(polling.length > 0, `a polling task exists (suite: ${builtinTasks.map(task => task.id).join(', ')})`);
	t.ok(others.length > 0);
});

t.test('repeated-observation is accepted on a suite without the polling task, for fewer turns or tokens', async t => {
	const dir = await scratch(t);
	// The duration rule has its own tests; here a generous declared limit keeps machine noise out of a turns/tokens verdict.
	const plan = await freeze({dir, tasks: others.join(','), policy: {concurrency: 2, acceptance: {require_all_pass: true, improvement: 'turns-or-tokens', max_duration_ratio: 3}}});
	const baseline = await attempt(plan, join(dir, 'baseline'));
	const candidate = await attemptByCli(plan, join(dir, 'candidate'), repeatedObservation);
	t.equal(baseline.report.passed, true, 'the baseline passes every task');
	t.equal(candidate.report.passed, true, 'the candidate passes every task');
	const decision = await compareReports(join(baseline.dir, 'report.json'), join(candidate.dir, 'report.json'));
	t.equal(decision.decision, 'accept', decision.checks.map(check => check.message).join('\n'));
	const improvement = decision.checks.find(check => check.rule === 'improvement');
	t.equal(improvement?.satisfied, true);
	t.match(improvement?.message, /< baseline/);
});

t.test('repeated-observation is rejected on a suite with the polling task, because it fails that task', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: [...polling, ...others.slice(0, 1)].join(',')});
	const baseline = await attempt(plan, join(dir, 'baseline'));
	const candidate = await attemptByCli(plan, join(dir, 'candidate'), repeatedObservation);
	t.equal(baseline.report.passed, true, 'the baseline passes the polling task');
	const decision = await compareReports(join(baseline.dir, 'report.json'), join(candidate.dir, 'report.json'));
	t.equal(decision.decision, 'reject');
	const failing = decision.checks.filter(check => !check.satisfied);
	t.ok(failing.some(check => check.rule === 'require_all_pass' && polling.some(id => check.message.includes(`candidate failed task ${id}`))),
		failing.map(check => check.message).join('\n'));
});
