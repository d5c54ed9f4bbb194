import {supervisedTiming} from '../host/index.js';
import type {ReportSide} from './verify-reports.js';
import type {DecisionTiming} from './decision-schema.js';

/**
 * How the two sides' wall times may be compared. Supervised hosts on both sides: the wall times come only from
 * the supervisor's process.json records. In-process on both: the reports' own supervisor-measured timings.
 * Anything else (one side each, or a side whose report and host records disagree) is refused.
 */
export async function compareTiming(baseline: ReportSide, candidate: ReportSide): Promise<DecisionTiming> {
	const refused = (reason: 'mixed_timing' | 'process_record', message: string): DecisionTiming => ({kind: 'refused', reason, message, baseline_wall_ms: null, candidate_wall_ms: null});
	const claimed = [baseline.report?.timing ?? null, candidate.report?.timing ?? null];
	if (claimed[0] !== null && claimed[1] !== null && claimed[0] !== claimed[1]) {
		return refused('mixed_timing', `the baseline's timing is ${claimed[0]} but the candidate's is ${claimed[1]}; supervised-host and in-process wall times are not comparable`);
	}
	const timing = await supervisedTiming(baseline.reportPath, candidate.reportPath);
	if (timing.kind === 'refused') return refused(timing.reason, timing.message);
	const supervised = timing.kind === 'supervised';
	for (const side of [baseline, candidate]) {
		if (side.report === null) continue;
		if ((side.report.timing === 'supervised-host') !== supervised) {
			return refused('process_record', `${side.label}: the report says its timing is ${side.report.timing}, but ${supervised ? 'a host record exists beside it' : 'it has no host record (<evidence>.host/host.json)'}`);
		}
	}
	if (timing.kind === 'unsupervised') {
		return {kind: 'unsupervised', reason: null, message: 'both sides ran in-process; wall times are the reports\' supervisor-measured timings', baseline_wall_ms: baseline.report?.totals.wall_ms ?? null, candidate_wall_ms: candidate.report?.totals.wall_ms ?? null};
	}
	const [b, c] = timing.sides;
	for (const [side, measured] of [[baseline, b], [candidate, c]] as const) {
		if (side.report?.host != null && side.report.host.digest !== measured.binary_digest) {
			return refused('process_record', `${side.label}: the report names host ${side.report.host.digest} but its host record measured ${measured.binary_digest}`);
		}
	}
	// A task that never launched has no process record, so the side's wall time is unknown rather than short.
	return {
		kind: 'supervised',
		reason: null,
		message: 'both sides ran as supervised hosts; wall times are read from the supervisor\'s process.json records',
		baseline_wall_ms: b.complete ? b.wall_ms : null,
		candidate_wall_ms: c.complete ? c.wall_ms : null,
	};
}
