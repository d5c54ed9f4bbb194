import {z} from 'zod';
import {Report} from '../attempt/report/report-schema.js';
import {Decision} from '../compare/decision-schema.js';
import {PairedStatistics} from '../compare/statistics.js';
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
	kind: z.enum(['attempt', 'comparison']),
	sides: z.array(SideInput).min(1).max(2),
	/** A comparison's decision.json; null for an attempt. */
	decision: Decision.nullable(),
	plan: PlanIdentity.nullable(),
	/** Paired statistics over the shared denominator, when both sides are known. */
	statistics: PairedStatistics.nullable(),
	generated_at: z.string(),
});
export type ReportInput = z.infer<typeof ReportInput>;
