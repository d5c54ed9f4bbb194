import {z} from 'zod';
import {ExecutionOutcome, Usage} from '../../../engine/outcome.js';
import {TaskFailureReason} from '../task-core/task-reasons.js';
import {Grade} from '../../../tasks/task-definition.js';
import {AgentIdentity} from '../../../agents/agent-identity.js';
import {ReportTotals} from '../../../controller-protocol/index.js';
// The schemas' own files, not process/index.ts: compare, report and ls read reports and need none of the rest of process/.
import {Containment} from '../../../process/containment.js';
import {LeakAudit, LeakedProcess} from '../../../process/attempt/leak-record.js';
import {Integrity, legacyIntegrity} from './integrity-label.js';

export {describeIntegrity, Integrity, integrityReasonText} from './integrity-label.js';
import {RecordSeal} from '../../evidence/seal/index.js';

export const reportSchema = 'harness-lab/report@1';
export const ledgerRecordSchema = 'harness-lab/ledger-record@1';

/** One task of the denominator: the independent verdict, what the engine said, and where the evidence is. */
export const TaskResult = z.object({
	index: z.number().int().nonnegative(),
	task_id: z.string(),
	status: z.enum(['passed', 'failed']),
	reason: TaskFailureReason.nullable(),
	message: z.string().nullable(),
	grade: Grade.nullable(),
	outcome: ExecutionOutcome.nullable(),
	/** Null when the task never reached the model. */
	usage: Usage.nullable(),
	/** Supervisor-measured wall time of the execution (monotonic clock); null when it did not start. */
	wall_ms: z.number().nonnegative().nullable(),
	/** Paths relative to the evidence directory. */
	evidence: z.record(z.string(), z.string()),
	/**
	 * The processes of the attempt that outlived this task, ended at its end. Null when it was not looked at alone
	 * (other tasks were still running at its end, or the task never ran): the attempt's final audit covers it.
	 * Absent in results written before the audit existed; every writer now sets it.
	 */
	leak_audit: LeakAudit.nullable().optional(),
	/** A supervised host's own report of its usage; `usage` is then the supervisor's metering at the provider boundary. Absent elsewhere. */
	usage_claim: Usage.nullable().optional(),
	/**
	 * The queue node that ran the task: the one whose checked answer was recorded, or for a task lost with its node the
	 * one BullMQ saw take it. Null when the task was shipped to the queue and no node is known; absent when it was not
	 * shipped (a local attempt, or a task that never started).
	 */
	node: z.string().nullable().optional(),
	/** The attempt that ran this entry, when its sealed record was taken from it by `hlab eval --resume`; absent when this attempt ran it. */
	resumed_from: z.string().optional(),
});
export type TaskResult = z.infer<typeof TaskResult>;

export const LedgerRecord = z.object({
	schema: z.literal(ledgerRecordSchema),
	attempt_id: z.string(),
	recorded_at: z.string(),
	result: TaskResult,
	/** The record's place in the attempt's MAC chain and the files it vouches for; absent in ledgers written before the seal. */
	seal: RecordSeal.optional(),
});
export type LedgerRecord = z.infer<typeof LedgerRecord>;

/** A side's sums: the fields the controller protocol reports, and no others. */
export const Totals = z.object(ReportTotals.shape);
export type Totals = z.infer<typeof Totals>;

/** How the side's wall times were measured: in the supervisor's worker threads, or as supervised host processes (process.json). */
export const Timing = z.enum(['in-process', 'supervised-host']);
export type Timing = z.infer<typeof Timing>;

/** Where the side's whole task turns ran: here (`local`), or shipped to queue nodes (`queue`); the timing says how each was executed. */
export const Placement = z.enum(['local', 'queue']);
export type Placement = z.infer<typeof Placement>;

/** The queue a queued side's turns were shipped to: its name and its Redis, never with a password. */
export const QueueRef = z.object({
	name: z.string(),
	redis: z.string(),
	/** How the nodes' answers were authenticated; `none` (--insecure-queue): anyone who reached the Redis could have written a verdict. Absent before answers were sealed. */
	auth: z.enum(['hmac-sha256', 'none']).optional(),
});
export type QueueRef = z.infer<typeof QueueRef>;

/** The host executable a supervised-host side launched, as the supervisor measured it. */
export const HostRef = z.object({launched: z.string(), path: z.string(), kind: z.enum(['build', 'file']), digest: z.string()});

/** Every process that outlived its task or the attempt, and what the final cleanup could not end. */
export const AttemptLeaks = z.object({
	backend: Containment,
	/** What this backend can see of an attempt, and what escapes it. */
	limits: z.string(),
	/** With the index of the task that it outlived; null: found when tasks had overlapped, or by the attempt's final audit. */
	leaked: z.array(LeakedProcess.extend({
		task_index: z.number().int().nullable(),
		/** The queue node whose final audit found it (its pid is that machine's); absent: found here. */
		node: z.string().optional(),
	})),
	/** Alive after the attempt's final cleanup, which ran before this report was written: must be empty. */
	survivors: z.array(z.number().int()),
	/** A queued attempt's nodes, each with its own final audit's backend and survivors; null: its audit never arrived (a problem names it). Absent for a local attempt. */
	nodes: z.array(z.object({node: z.string(), backend: Containment.nullable(), survivors: z.array(z.number().int()).nullable()})).optional(),
});
export type AttemptLeaks = z.infer<typeof AttemptLeaks>;

/** Where a usage claim and the metering disagree, per task. */
export const UsageDifference = z.object({
	task_id: z.string(),
	metered: z.object({turns: z.number().int().nullable(), total_tokens: z.number().int().nullable()}),
	claimed: z.object({turns: z.number().int().nullable(), total_tokens: z.number().int().nullable()}),
});

/**
 * A supervised host, measured by the supervisor: the whole attempt's wall time (first launch started to last launch
 * ended, monotonic) with the per-task sum beside it, both over the tasks that launched (those with a process record;
 * the tasks' own wall_ms, null for the others, say which); usage metered at the provider boundary, the binary's claims beside it.
 */
export const HostMeasure = z.object({
	attempt_wall_ms: z.number().nonnegative().nullable(),
	task_sum_ms: z.number().nonnegative().nullable(),
	usage_source: z.literal('provider-proxy'),
	claimed: z.object({turns: z.number().int().nullable(), total_tokens: z.number().int().nullable()}),
	/** Tasks whose claimed turns or tokens contradict the metering (both known, and different); empty when the binary told the truth or claimed no count. */
	usage_differences: z.array(UsageDifference),
});
export type HostMeasure = z.infer<typeof HostMeasure>;

/** An attempt whose sealed records a resumed attempt took (`hlab eval --resume`): which entries; its folder when known. */
export const ResumedSource = z.object({attempt_id: z.string(), dir: z.string().nullable(), entries: z.array(z.string())});

export const Report = z.object({
	schema: z.literal(reportSchema),
	attempt_id: z.string(),
	side: z.enum(['baseline', 'candidate']),
	/** Reports written before host candidates existed were all in-process. */
	timing: Timing.default('in-process'),
	/** Absent in reports written before queued attempts existed: those were all local. */
	placement: Placement.optional(),
	/** Present only for a queued side. */
	queue: QueueRef.optional(),
	host: HostRef.nullable().default(null),
	/** The third-party agent the side ran (`--agent`); absent or null for other sides and in older reports. */
	agent: AgentIdentity.nullable().optional(),
	/** Whether untrusted code was contained (docs/trust.md); reports written before the labels read as trusted-code. */
	integrity: Integrity.default(legacyIntegrity),
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
	/** Null in recovered reports (nobody looked before the crash); absent in reports that predate the audit. */
	leak_audit: AttemptLeaks.nullable().optional(),
	/** Problems with the attempt itself (export errors, survivors), each a sentence. */
	problems: z.array(z.string()),
	started_at: z.string(),
	ended_at: z.string(),
	/** Supervisor-measured wall time of the whole attempt. */
	attempt_wall_ms: z.number().nonnegative().nullable(),
	/** A supervised-host side's own measurements: its wall time and usage as the supervisor took them. Absent for in-process sides. */
	host_measure: HostMeasure.nullable().optional(),
	/** Present only in a resumed attempt: each earlier attempt whose records it took, with their entries (each task says it as `resumed_from`). */
	resumed_from: z.array(ResumedSource).optional(),
});
export type Report = z.infer<typeof Report>;
