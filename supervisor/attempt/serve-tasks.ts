import type {AttemptOptions} from './stages/attempt-options.js';
import type {Admission} from './stages/admit-attempt.js';
import type {AttemptLeaks, TaskResult} from './report/report-schema.js';
import {taskTurns} from './stages/run-tasks.js';
import {closeTasks, recordStarted, withStartedAttempt} from './stages/started-attempt.js';
import type {Services} from './stages/start-services.js';
import type {RecordedTask} from './task-core/task-execution.js';

/** What a caller serving an admitted attempt may ask of it. */
export interface TaskService {
	/** The attempt's evidence directory here; task `index`'s folder is `taskDir(index)` under it. */
	dir: string;
	taskDir(index: number): string;
	/** One task of the denominator, run exactly as a local attempt runs it (setup, execution, grade, leak audit, export, ledger). */
	run(index: number): Promise<RecordedTask>;
}

/** A refusal lists every difference and ran nothing; a served attempt ends with the final leak audit of a local attempt. */
export type ServedTasks =
	| {reason: 'refused'; differences: string[]}
	| {reason: null; leaks: AttemptLeaks; problems: string[]};

/**
 * An attempt whose tasks are asked for one at a time (a queue node's share of a queued attempt): opened, admitted and
 * recorded (attempt.json) as `runAttempt` does, then `serve` asks for tasks until it returns, and the attempt's final
 * leak audit runs. A plan this installation does not admit, or a provider it cannot reach, refuses the attempt instead.
 */
export function serveTasks(options: AttemptOptions, serve: (service: TaskService) => Promise<void>): Promise<ServedTasks> {
	return withStartedAttempt(options, async started => {
		const {attempt, admission, services} = started;
		const differences = refusalOf(admission, services);
		if (differences.length > 0 || services.ready.provider === null) return {reason: 'refused', differences};
		await recordStarted(started);
		const turns = taskTurns(attempt, admission, services, services.ready.provider);
		const results: TaskResult[] = [];
		const run = async (index: number): Promise<RecordedTask> => {
			const recorded = await turns.run(index);
			results.push(recorded.result);
			return recorded;
		};
		try {
			await serve({dir: attempt.dir, taskDir: index => turns.taskDir(index), run});
		} finally {
			turns.progress.end();
		}
		return {reason: null, ...await closeTasks(started, {results, unattributed: turns.unattributed})};
	});
}

/** Every difference admission found, or why this installation cannot reach the provider (its own API key): empty when admitted. */
function refusalOf(admission: Admission, services: Services): string[] {
	if (admission.result.differences.length > 0) return admission.result.differences;
	const {failure} = services.ready;
	return failure === null ? [] : [`${failure.reason}: ${failure.message}`];
}
