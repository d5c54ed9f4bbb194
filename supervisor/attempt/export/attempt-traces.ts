import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {AtifTrajectory, trajectoryFile} from '../../export-formats/index.js';
import type {TraceExport} from '../../export-formats/otlp/index.js';
import type {TaskResult} from '../report/report-schema.js';

export interface TraceOptions {
	/** The OTLP/HTTP collector (`--otlp URL`, `HLAB_OTLP_ENDPOINT`). */
	endpoint: string;
	/** Conversation content in the spans (`--otlp-content`). */
	content: boolean;
}

export interface TracedAttempt {
	attempt_id: string;
	plan_digest: string;
	side: string;
}

/** The OpenTelemetry packages are loaded here, by an attempt that sends traces, and by no other. */
export async function openAttemptTraces(options: TraceOptions, attempt: TracedAttempt, onProblem: (line: string) => void): Promise<AttemptTraces> {
	const {TraceExport} = await import('../../export-formats/otlp/index.js');
	return new AttemptTraces(new TraceExport({...options, onProblem}), attempt, onProblem);
}

/** An attempt's traces: one per recorded task, from its trajectory and its verdict. */
export class AttemptTraces {
	private failed = false;

	constructor(private readonly traces: TraceExport, private readonly attempt: TracedAttempt, private readonly onProblem: (line: string) => void) {}

	/** After the task's record is in the ledger; reads the trajectory just written beside it. Never throws: a trace is not the attempt's business. */
	recorded(result: TaskResult, taskDir: string, recordedAt = new Date()): void {
		try {
			this.traces.task({
				trajectory: readTrajectory(taskDir),
				attempt: this.attempt,
				task: {index: result.index, task_id: result.task_id, status: result.status, reason: result.reason, score: result.grade?.score ?? null, details: result.grade?.details ?? null, wall_ms: result.wall_ms},
				recordedAt,
			});
		} catch (error) {
			if (this.failed) return;
			this.failed = true;
			this.onProblem(`the trace of ${result.task_id} could not be made (${(error as Error).message}); the attempt goes on`);
		}
	}

	close(): Promise<void> {
		return this.traces.close();
	}
}

/** The task's trajectory, or null when it has none (it never reached the model) or it is not one. */
function readTrajectory(taskDir: string): AtifTrajectory | null {
	try {
		return AtifTrajectory.parse(JSON.parse(readFileSync(join(taskDir, trajectoryFile), 'utf8')));
	} catch {
		return null;
	}
}
