import type {CaseRecord, RunRecord} from '../../cartridges/case-record.js';
import type {CartridgeDiff} from '../../cartridges/diff-cartridges.js';
import type {ReplayReport} from './replay-run.js';
import {readable} from '../plan/readable-number.js';

const known = (value: number | null): string => (value === null ? 'unknown' : String(value));

/** One grader's line, its score rounded as read; a detail of several lines goes below it, indented, never glued on. */
function graderLines(grader: CaseRecord['graders'][number]): string[] {
	const [first = '', ...rest] = (grader.detail ?? '').split('\n');
	const head = `  ${grader.status.padEnd(9)} ${grader.module}#${grader.name}${grader.marks.length > 0 ? ` [${grader.marks.join(', ')}]` : ''}${grader.score === null ? '' : ` score ${readable(grader.score)}`}${first ? `: ${first}` : ''}`;
	return [head, ...rest.filter(line => line.trim() !== '').map(line => `      ${line}`)];
}

/** A finished evaluation for people: each case's verdict, graders and failures, then the run's. */
export function renderRun(run: RunRecord, records: CaseRecord[], out: string): string {
	const lines = [`cartridge ${run.cartridge.name}  harness ${run.cartridge.fingerprint.digest}`];
	for (const record of records) {
		const {outcome} = record;
		lines.push(`case ${record.case_id}: ${record.verdict.passed ? 'PASSED' : 'FAILED'}  (run ${outcome.status}${outcome.reason && outcome.reason !== outcome.status ? ` ${outcome.reason}` : ''}, ${outcome.steps} steps, tokens ${known(outcome.usage.total_tokens)})`);
		for (const grader of record.graders) lines.push(...graderLines(grader));
		for (const failure of record.verdict.failures) lines.push(`  ! ${failure.reason}: ${failure.detail}`);
	}
	for (const failure of run.failures) lines.push(`! ${failure.reason}: ${failure.detail}`);
	lines.push(`${run.passed ? 'passed' : 'FAILED'}: ${run.cases.filter(entry => entry.verdict.passed).length}/${run.cases.length} cases; records in ${out}`);
	return `${lines.join('\n')}\n`;
}

export function renderReplay(report: ReplayReport): string {
	const lines = [`replay of ${report.recorded_run}`, `harness ${report.recorded_fingerprint} -> ${report.replayed_fingerprint}`];
	for (const entry of report.cases) {
		lines.push(`case ${entry.id}: ${entry.changes.length === 0 ? 'unchanged' : 'CHANGED'}; model responses ${entry.responses_unchanged ? 'unchanged' : 'DIFFER'}`);
		if (entry.diverged) lines.push(`  diverged (${entry.diverged.reason}): ${entry.diverged.detail}`);
		for (const change of entry.changes) lines.push(`  ${change}`);
	}
	lines.push(report.changed ? 'the outcome changed' : 'the outcome is the recorded one');
	return `${lines.join('\n')}\n`;
}

export function renderDiff(diff: CartridgeDiff): string {
	const lines = [`--- ${diff.before.dir}`, `+++ ${diff.after.dir}`, `harness ${diff.harness_changed ? 'CHANGED' : 'unchanged'} (${diff.before.fingerprint} -> ${diff.after.fingerprint})`];
	if (diff.changes.length === 0) lines.push('no difference');
	for (const change of diff.changes) {
		lines.push(`${change.section}: ${change.name} ${change.change} (${change.detail})`);
		for (const line of change.lines ?? []) lines.push(`    ${line}`);
	}
	return `${lines.join('\n')}\n`;
}
