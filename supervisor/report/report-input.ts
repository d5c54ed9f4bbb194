import {z} from 'zod';
import {Report} from '../attempt/report/report-schema.js';
import {Decision} from '../compare/decision-schema.js';
import {CandidatesDecision} from '../compare/candidates-decision-schema.js';
import {PairedMetric, PairedStatistics, TaskDifferencesSchema} from '../compare/statistics.js';
import {LeakCell} from './leak-audit.js';
import {PlanIdentity} from './plan-identity.js';
import {TaskEvidence} from './task-evidence.js';

/** One attempt as the page shows it: its report, and per task (in report order) the leak audit and the evidence read from its folder. */
export const SideInput = z.object({
	label: z.enum(['attempt', 'baseline', 'candidate']),
	report_path: z.string(),
	report: Report,
	leaks: z.array(LeakCell.nullable()),
	evidence: z.array(TaskEvidence),
});
export type SideInput = z.infer<typeof SideInput>;

/** Everything `renderReportPage` needs, already read: the renderer touches no file. */
export const ReportInput = z.object({
	kind: z.enum(['attempt', 'comparison', 'candidates']),
	sides: z.array(SideInput).min(1).max(2),
	/** A comparison's decision.json; null for an attempt. */
	decision: Decision.nullable(),
	plan: PlanIdentity.nullable(),
	/** Paired statistics over the shared denominator, when both sides are known. */
	statistics: PairedStatistics.nullable(),
	generated_at: z.string(),
	/** Several candidates against one baseline: the family's decision, and per candidate each statistic's paired differences by task. Null otherwise. */
	family: z.object({
		decision: CandidatesDecision,
		differences: z.array(z.array(z.object({metric: PairedMetric, tasks: z.array(TaskDifferencesSchema)}))),
	}).nullable().default(null),
});
export type ReportInput = z.infer<typeof ReportInput>;
