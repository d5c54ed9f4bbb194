import type {QueueRef, Timing} from '../report/report-schema.js';
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
	close(): Promise<void>;
}

/** Where an attempt's whole turns run: here with an executor, or shipped to a queue. */
export type Placement = {kind: 'local'; executor: TaskExecutor} | {kind: 'queue'; remote: RemotePlacement};
