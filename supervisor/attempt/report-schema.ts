import {z} from 'zod';
import {ExecutionOutcome, FailureReason, Usage} from '../../engine/outcome.js';
import {Grade} from '../../tasks/task-definition.js';
import {ReportTotals} from '../../controller-protocol/index.js';

export const reportSchema = 'harness-lab/report@1';
export const ledgerRecordSchema = 'harness-lab/ledger-record@1';

/** One task of the denominator: the independent verdict, what the engine said, and where the evidence is. */
export const TaskResult = z.object({
	index: z.number().int().nonnegative(),
	task_id: z.string(),
	status: z.enum(['passed', 'failed']),
	reason: FailureReason.nullable(),
	message: z.string().nullable(),
	grade: Grade.nullable(),
	outcome: ExecutionOutcome.nullable(),
	/** Null when the task never reached the model. */
	usage: Usage.nullable(),
	/** Supervisor-measured wall time of the execution (monotonic clock); null when it did not start. */
	wall_ms: z.number().nonnegative().nullable(),
	/** Paths relative to the evidence directory. */
	evidence: z.record(z.string(), z.string()),
});
export type TaskResult = z.infer<typeof TaskResult>;

export const LedgerRecord = z.object({
	schema: z.literal(ledgerRecordSchema),
	attempt_id: z.string(),
	recorded_at: z.string(),
	result: TaskResult,
});
export type LedgerRecord = z.infer<typeof LedgerRecord>;

/** A side's sums: the fields the controller protocol reports, and no others. */
export const Totals = z.object(ReportTotals.shape);
export type Totals = z.infer<typeof Totals>;

/** How the side's wall times were measured: in the supervisor's worker threads, or as supervised host processes (process.json). */
export const Timing = z.enum(['in-process', 'supervised-host']);
export type Timing = z.infer<typeof Timing>;

/** The host executable a supervised-host side launched, as the supervisor measured it. */
export const HostRef = z.object({launched: z.string(), path: z.string(), kind: z.enum(['build', 'file']), digest: z.string()});

export const Report = z.object({
	schema: z.literal(reportSchema),
	attempt_id: z.string(),
	side: z.enum(['baseline', 'candidate']),
	/** Reports written before host candidates existed were all in-process. */
	timing: Timing.default('in-process'),
	host: HostRef.nullable().default(null),
	plan_digest: z.string(),
	/** How the report came to be: a finished attempt, an interrupted one, or rebuilt from the ledger. */
	completion: z.enum(['finished', 'interrupted', 'recovered']),
	admission: z.object({admitted: z.boolean(), differences: z.array(z.string())}),
	candidate: z.object({source_path: z.string(), source_digest: z.string(), code_digest: z.string(), sdk_digest: z.string()}).nullable(),
	/** The fixed, ordered denominator. */
	task_ids: z.array(z.string()),
	tasks: z.array(TaskResult),
	totals: Totals,
	/** True when every task passed and the evidence was exported. */
	passed: z.boolean(),
	/** Problems with the attempt itself (export errors, survivors), each a sentence. */
	problems: z.array(z.string()),
	started_at: z.string(),
	ended_at: z.string(),
	/** Supervisor-measured wall time of the whole attempt. */
	attempt_wall_ms: z.number().nonnegative().nullable(),
});
export type Report = z.infer<typeof Report>;
