import {z} from 'zod';
import {AgentIdentity} from '../../../agents/agent-identity.js';
import {HarnessFingerprint} from '../../../harness/index.js';
import {PackageFingerprint} from '../../plan/fingerprints.js';
import {HostRef, Placement, QueueRef} from '../report/report-schema.js';
import {Integrity, legacyIntegrity} from '../report/integrity-label.js';
import {Machine} from './measure-machine.js';
import {sealScheme} from '../../evidence/seal/index.js';

export const attemptSchema = 'harness-lab/attempt@1';

export const LoadedModule = z.object({
	slot: z.string(),
	/** What fills the slot: `builtin`, the candidate's snapshot digest, or null when the slot stays empty. */
	implementation: z.string().nullable(),
});

/** `attempt.json`: who ran the attempt, with what code, against which services. */
export const AttemptRecord = z.object({
	schema: z.literal(attemptSchema),
	attempt_id: z.string(),
	/** `KEY=1` in the environment of every process the attempt starts, so a recovery can find survivors. */
	process_marker: z.string(),
	side: z.enum(['baseline', 'candidate']),
	plan_digest: z.string(),
	started_at: z.string(),
	supervisor: z.object({pid: z.number().int(), start_time: z.number().nullable(), argv: z.array(z.string())}),
	executable: z.object({
		node_path: z.string(),
		node_digest: z.string().nullable(),
		hlab_version: z.string(),
		/** Digest over the compiled harness-lab code that ran (dist/), per file. */
		build_digest: z.string(),
		build_files: z.number().int().nonnegative(),
		git_head: z.string().nullable(),
	}),
	node: z.object({version: z.string(), platform: z.string(), arch: z.string(), cpus: z.number().int()}),
	/** The machine: CPU, memory, kernel, the evidence directory's file system, the versions of git, bash and node; null in older records. */
	machine: Machine.nullable().default(null),
	packages: z.array(PackageFingerprint),
	candidate: z.object({source_path: z.string(), source_digest: z.string(), code_digest: z.string(), sdk_digest: z.string()}).nullable(),
	/** The host executable every task ran in (`--candidate-host`), null for in-process attempts. */
	host: HostRef.nullable().default(null),
	/** The third-party agent every task ran (`--agent`): adapter, package, installed digest, config digest; null otherwise and in older records. */
	agent: AgentIdentity.nullable().default(null),
	/** Where the task turns ran, so that a recovery reports it; absent in older records (all local). */
	placement: Placement.default('local'),
	queue: QueueRef.nullable().default(null),
	service_bindings: z.record(z.string(), z.string()),
	/** The Harness the tasks ran when the attempt was given one; null: the built-in agent (or a host's own). */
	harness: HarnessFingerprint.nullable().default(null),
	loaded_modules: z.array(LoadedModule),
	concurrency: z.number().int(),
	/** The worker threads the in-process tasks shared (the frozen concurrency is tasks in flight); null when none ran. */
	threads: z.number().int().positive().nullable().default(null),
	keep_workdirs: z.boolean(),
	/** What ran the tasks here: worker threads in the supervisor, a sandboxed task-runner process, a host's processes, or an agent CLI's; null: a queue's nodes (or an older record). */
	executor: z.enum(['in-process', 'sandboxed-runner', 'host', 'agent']).nullable().default(null),
	/** Contained or trusted-code, with the reasons; older records read as trusted-code, recorded before the labels. */
	integrity: Integrity.default(legacyIntegrity),
	/** How the ledger is sealed and where the attempt's key is kept (never the key itself); null in attempts from before the seal. */
	seal: z.object({scheme: z.literal(sealScheme), key_path: z.string()}).nullable().default(null),
});
export type AttemptRecord = z.infer<typeof AttemptRecord>;
