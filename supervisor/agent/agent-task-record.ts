import {z} from 'zod';
// Schemas from their own files: a comparison reads these records and runs no agent (bench/README.md, the test suite).
import {AgentIdentity} from '../../agents/agent-identity.js';
import {Usage} from '../../engine/outcome.js';
import {HostFailureReason} from '../host/host-failure.js';
import {ProxyRefusals} from '../host/host-records.js';

export const agentTaskSchema = 'harness-lab/agent-task@1';

/** The last model request of the task at its metering proxy: the cross-check of an agent that says it finished. */
const LastExchange = z.object({status: z.int(), refused: z.boolean(), message: z.string().nullable()});

/** `tasks/NNN-id/agent-task.json`: the supervisor's verdict on one agent launch, and what it was judged from. */
export const AgentTaskRecord = z.object({
	schema: z.literal(agentTaskSchema),
	index: z.int().nonnegative(),
	task_id: z.string(),
	agent: AgentIdentity,
	/** The argv the agent was started with (its environment is not recorded: only names, below). */
	argv: z.array(z.string()),
	/** The names of the variables the agent's environment held; never their values. */
	env_names: z.array(z.string()),
	exit_code: z.int().nullable(),
	signal: z.string().nullable(),
	wall_ms: z.number().nonnegative(),
	/** Monotonic milliseconds on the attempt's clock, just before the launch and just after its tree ended. */
	started_ms: z.number().nonnegative(),
	ended_ms: z.number().nonnegative(),
	/** The adapter's reading of the agent's own output (null when it never ran or the adapter could not read it). */
	classification: z.object({status: z.enum(['finished', 'failed']), reason: z.string().nullable(), message: z.string().nullable()}).nullable(),
	last_exchange: LastExchange.nullable(),
	/** Turns and tokens counted at the provider boundary: the task's usage. */
	metered_usage: Usage,
	/** What the agent said it used; a claim beside the metering. */
	usage_claim: Usage.nullable(),
	requests: z.int().nonnegative(),
	proxy_refusals: ProxyRefusals,
	/** Processes cleanup found outside the agent's group (a tool child in a new session) or alive after it exited, ended and named. */
	leaked: z.array(z.object({pid: z.int(), comm: z.string().nullable(), how: z.string()})),
	final_text: z.string().nullable(),
	failure: z.object({reason: HostFailureReason, message: z.string()}).nullable(),
});
export type AgentTaskRecord = z.infer<typeof AgentTaskRecord>;
