import {z} from 'zod';
import {EngineFailureReason} from '../../../engine/outcome.js';
// Not host/index.ts: every report schema holds these reasons, and the host's runner and metering proxy load the tokenizer.
import {HostFailureReason} from '../../host/host-failure.js';

/** The reasons a task of the denominator fails for that the engine never produces: the supervisor's own. */
const supervisorReasons = [
	// The attempt was refused: an identity changed since the plan was frozen, or the host does not match its record.
	'admission',
	'grader',
	'export',
	'controller',
	// Not launched: the attempt had spent its frozen total budget.
	'budget',
	// Queue executor: the worker running it was lost (never retried); its exported evidence exceeded the bound.
	'worker_lost', 'evidence_limit',
	// Its ledger record is not vouched for by the attempt's seal (forged, a duplicate, out of the chain, its files changed).
	'evidence',
	// Its workspace held more than the plan's workspace limit (allocated blocks); the task was ended there.
	'workspace_limit',
	// Not started: the runtime root had less free space than one workspace may take (the machine's, not the task's fault).
	'runtime_space',
] as const;

/** Why a task failed, as its result, the ledger and a pair record write it: the engine's reasons, the host's, the supervisor's. */
export const TaskFailureReason = z.enum([...HostFailureReason.options, ...supervisorReasons]);
export type TaskFailureReason = z.infer<typeof TaskFailureReason>;

/** The task's reasons the engine may not name (the rule test reads them): everything above the engine's own. */
export const notEngineReasons: readonly TaskFailureReason[] = TaskFailureReason.options.filter(reason => !(EngineFailureReason.options as readonly string[]).includes(reason));
