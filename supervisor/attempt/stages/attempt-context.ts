import type {Logger} from 'pino';
import type {AttemptScope} from '../../../process/index.js';
import type {RuntimeRootRecord} from '../../evidence/runtime-root.js';
import type {Plan} from '../../plan/plan-schema.js';
import type {AttemptTraces} from '../export/attempt-traces.js';
import type {Ledger} from '../task-core/ledger.js';
import type {AttemptOptions} from './attempt-options.js';

/** What every stage of one attempt shares: its plan, its evidence directory, its identity and its log. */
export interface AttemptContext {
	options: AttemptOptions;
	plan: Plan;
	dir: string;
	attemptId: string;
	/** The environment key every thread and process of the attempt inherits (`KEY=1`). */
	markerKey: string;
	/** Holds every process of the attempt (its cgroup, or its marker) so that what outlives a task is found. */
	scope: AttemptScope;
	side: 'baseline' | 'candidate';
	signal: AbortSignal;
	log: Logger;
	ledger: Ledger;
	/** Where the attempt's key is kept (never the key): recorded in attempt.json. */
	keyPath: string;
	/** Where the tasks' runtime state lives until export (a tmpfs where there is one), as recorded in `runtime-root.json`. */
	runtime: RuntimeRootRecord;
	startedAt: Date;
	/** Monotonic start of the attempt, for its wall time. */
	t0: number;
	/** Where each recorded task's trace goes (`--otlp`); null when nowhere. */
	traces: AttemptTraces | null;
}
