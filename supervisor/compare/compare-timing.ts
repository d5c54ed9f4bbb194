// The timings' own files, not the folders' index.ts: a comparison runs no agent and no host.
import {readAgentTiming} from '../agent/agent-timing.js';
import {supervisedTiming} from '../host/supervised-timing.js';
import type {ReportSide} from './verify-reports.js';
import type {DecisionTiming} from './decision-schema.js';

/**
 * How the two sides' wall times may be compared. Supervised hosts on both sides: the wall times come only from
 * the supervisor's process.json records. In-process on both: the reports' own supervisor-measured timings.
 * Anything else (one side each, or a side whose report and host records disagree) is refused.
 */
export async function compareTiming(baseline: ReportSide, candidate: ReportSide): Promise<DecisionTiming> {
	const refused = (reason: 'mixed_timing' | 'process_record', message: string): DecisionTiming => ({kind: 'refused', reason, message, baseline_wall_ms: null, candidate_wall_ms: null, baseline_task_sum_ms: null, candidate_task_sum_ms: null});
	const claimed = [baseline.report?.timing ?? null, candidate.report?.timing ?? null];
	if (claimed[0] !== null && claimed[1] !== null && claimed[0] !== claimed[1]) {
		return refused('mixed_timing', `the baseline's timing is ${claimed[0]} but the candidate's is ${claimed[1]}; supervised-host and in-process wall times are not comparable`);
	}
	const timing = await supervisedTiming(baseline.reportPath, candidate.reportPath, readAgentTiming);
	if (timing.kind === 'refused') return refused(timing.reason, timing.message);
	const supervised = timing.kind === 'supervised';
	for (const side of [baseline, candidate]) {
		if (side.report === null) continue;
		if ((side.report.timing === 'supervised-host') !== supervised) {
			return refused('process_record', `${side.label}: the report says its timing is ${side.report.timing}, but ${supervised ? 'a host or agent record exists beside it' : 'it has no host record (<evidence>.host/host.json) and ran no agent'}`);
		}
	}
	if (timing.kind === 'unsupervised') {
		return {kind: 'unsupervised', reason: null, message: 'both sides ran in-process; wall times are the reports\' supervisor-measured timings', baseline_wall_ms: baseline.report?.totals.wall_ms ?? null, candidate_wall_ms: candidate.report?.totals.wall_ms ?? null, baseline_task_sum_ms: null, candidate_task_sum_ms: null};
	}
	const [b, c] = timing.sides;
	for (const [side, measured] of [[baseline, b], [candidate, c]] as const) {
		if (side.report?.host != null && side.report.host.digest !== measured.binary_digest) {
			return refused('process_record', `${side.label}: the report names host ${side.report.host.digest} but its host record measured ${measured.binary_digest}`);
		}
	}
	// A task that never launched has no process record, so the side's wall time is unknown rather than short.
	const whole = (side: typeof b): number | null => side.complete ? side.attempt_wall_ms : null;
	const sum = (side: typeof b): number | null => side.wall_ms;
	return {
		kind: 'supervised',
		reason: null,
		message: `both sides ran as supervised processes (hosts or agents); the duration is the whole attempt's wall time (first task started to last task ended, monotonic) from the supervisor's own records: baseline ${ms(whole(b))}, candidate ${ms(whole(c))}; the per-task process.json sums beside it: baseline ${ms(sum(b))}, candidate ${ms(sum(c))}`,
		baseline_wall_ms: whole(b),
		candidate_wall_ms: whole(c),
		baseline_task_sum_ms: sum(b),
		candidate_task_sum_ms: sum(c),
	};
}

function ms(value: number | null): string {
	return value === null ? 'unknown' : `${Math.round(value)} ms`;
}
