import type {AttemptLeaks, QueueRef, Timing} from '../report/report-schema.js';
import type {RecordedTask, TaskExecutor, TaskTurn} from './task-execution.js';

/**
 * Ships whole task turns elsewhere (a queue node): each is set up, executed, graded, audited and exported where it
 * lands, its evidence left in `turn.paths.dir`; the attempt records what it returns as it records a local turn.
 */
export interface RemotePlacement {
	readonly kind: 'queue';
	readonly queue: QueueRef;
	/** How the turns are executed where they land, for the report's timing. */
	readonly timing: Timing;
	start(lanes: number): Promise<void>;
	runWhole(turn: TaskTurn): Promise<RecordedTask>;
	/** After the last task: the turns' hosts are told the attempt is over, and each one's final leak audit is awaited (a bounded time). */
	withdraw(): Promise<NodeAudit[]>;
	close(): Promise<void>;
}

/** A queue node's final leak audit of its share of the attempt, as the placement took it; or why none came. */
export type NodeAudit = {node: string; leaks: AttemptLeaks; problems: string[]} | {node: string; missing: string};

/** Where an attempt's whole turns run: here with an executor, or shipped to a queue. */
export type Placement = {kind: 'local'; executor: TaskExecutor} | {kind: 'queue'; remote: RemotePlacement};
