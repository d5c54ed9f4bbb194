import type {Decision, TaskRow} from '../decision-schema.js';
import type {CandidatesDecision} from '../candidates-decision-schema.js';

/** Checks whose failure means the evidence or the environment, not the candidate: JUnit `error`, kept apart from `failure`. */
const errorRules = new Set(['verification', 'timing', 'infrastructure']);

/**
 * A decision as JUnit XML: per candidate one suite, with a test case per task pair (a failure when the candidate did
 * not pass it) and one for the decision (a failure naming each failed check; an error when the evidence or the
 * provider failed instead).
 */
export function junitXml(decision: Decision | CandidatesDecision): string {
	const suites = 'candidates' in decision
		? decision.candidates.map(item => suite(item.candidate, item.decision, item.verdict))
		: [suite(decision.candidate.report, decision, decision.decision)];
	const count = (what: 'tests' | 'failures' | 'errors'): number => suites.reduce((sum, item) => sum + item[what], 0);
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<testsuites name="hlab decision" tests="${count('tests')}" failures="${count('failures')}" errors="${count('errors')}">`,
		...suites.map(item => item.xml),
		'</testsuites>',
		'',
	].join('\n');
}

interface Suite {
	xml: string;
	tests: number;
	failures: number;
	errors: number;
}

function suite(candidate: string, decision: Decision, verdict: Decision['decision']): Suite {
	const cases = [...decision.tasks.map(taskCase), decisionCase(decision, verdict)];
	const failures = cases.filter(item => item.kind === 'failure').length;
	const errors = cases.filter(item => item.kind === 'error').length;
	return {
		tests: cases.length, failures, errors,
		xml: [`  <testsuite name="${escape(candidate)}" tests="${cases.length}" failures="${failures}" errors="${errors}">`, ...cases.map(item => item.xml), '  </testsuite>'].join('\n'),
	};
}

interface Case {
	xml: string;
	kind: 'pass' | 'failure' | 'error';
}

function taskCase(row: TaskRow): Case {
	const open = `    <testcase classname="task" name="${escape(row.task_id)}"`;
	const candidate = row.candidate;
	if (candidate !== null && candidate.status === 'passed') return {kind: 'pass', xml: `${open}/>`};
	const message = candidate === null ? 'the candidate has no result for this entry' : `the candidate ${candidate.status}${candidate.reason === null ? '' : ` (${candidate.reason})`}; baseline ${row.baseline?.status ?? 'no result'}`;
	return {kind: 'failure', xml: `${open}>\n      <failure message="${escape(message)}" type="task"/>\n    </testcase>`};
}

function decisionCase(decision: Decision, verdict: Decision['decision']): Case {
	const open = `    <testcase classname="decision" name="${escape(`decision: ${verdict}`)}"`;
	if (verdict === 'accept') return {kind: 'pass', xml: `${open}/>`};
	const failed = decision.checks.filter(check => !check.satisfied);
	const errors = failed.filter(check => errorRules.has(check.rule));
	const kind = errors.length > 0 ? 'error' : 'failure';
	const named = (errors.length > 0 ? errors : failed).map(check => `${check.rule}: ${check.message}`);
	const message = named.length > 0 ? named.join('; ') : verdict === 'insufficient' && decision.insufficient !== null ? decision.insufficient.message : `the decision is ${verdict}`;
	return {kind, xml: `${open}>\n      <${kind} message="${escape(message)}" type="${escape(verdict)}">${escape(named.join('\n'))}</${kind}>\n    </testcase>`};
}

/** XML attribute and text escaping; characters XML 1.0 cannot hold at all are dropped. */
function escape(text: string): string {
	return text
		.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
		.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
