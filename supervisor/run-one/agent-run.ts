import {z} from 'zod';
import {ExecutionOutcome} from '../../engine/index.js';
import {Grade} from '../../tasks/index.js';
import {PlanProvider} from '../plan/plan-schema.js';

export const agentRunSchema = 'harness-lab/agent-run@1';

/** What `hlab agent --json` prints: one task run outside an experiment, graded independently. */
export const AgentRun = z.object({
	schema: z.literal(agentRunSchema),
	task: z.string(),
	/** Set when the task is a cartridge's case (`task` is then its id). */
	cartridge: z.object({dir: z.string(), case_id: z.string()}).optional(),
	workspace: z.string(),
	/** Where journal.jsonl, messages.jsonl and the scripted provider's records are. */
	state_dir: z.string(),
	provider: PlanProvider,
	budgets: z.object({max_steps: z.number().int().positive(), timeout_ms: z.number().int().positive()}),
	candidate: z.object({source_path: z.string(), source_digest: z.string(), code_digest: z.string(), plugin_id: z.string().nullable()}).nullable(),
	outcome: ExecutionOutcome,
	grade: Grade,
	/** Null when the execution never started (a candidate that did not compile, a setup that failed): unknown, not 0. */
	wall_ms: z.number().int().nonnegative().nullable(),
});
export type AgentRun = z.infer<typeof AgentRun>;
