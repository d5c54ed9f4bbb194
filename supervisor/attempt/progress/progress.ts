import {terminalText} from '../../../process/index.js';
import {LiveDisplay} from './live-display.js';
import {progressFrame} from './progress-frame.js';
import type {TaskResult} from '../report/report-schema.js';

/** How often the live display redraws while nothing finishes, so elapsed times move. */
const redrawMs = 500;

/**
 * Tasks done, passed, failed and running, elapsed time, time left, tokens and the running tasks:
 * a live display on a terminal, one plain line per finished task otherwise, nothing when quiet.
 */
export class Progress {
	#done = 0;
	#passed = 0;
	#failed = 0;
	/** Tokens of the finished tasks; null once one of them reached the model without a known total. */
	#tokens: number | null = 0;
	/** Running task ids with their start time (performance.now()). */
	readonly #running = new Map<string, number>();
	readonly #t0 = performance.now();
	readonly #live: LiveDisplay | null;
	#timer: NodeJS.Timeout | undefined;

	constructor(readonly total: number, readonly out: NodeJS.WriteStream = process.stderr, readonly quiet = false) {
		this.#live = out.isTTY === true && !quiet ? new LiveDisplay(out) : null;
		if (this.#live) this.#timer = setInterval(() => this.#draw(), redrawMs).unref();
	}

	started(taskId: string): void {
		this.#running.set(taskId, performance.now());
		this.#draw();
	}

	finished(result: TaskResult, wasRunning: boolean): void {
		if (wasRunning) this.#running.delete(result.task_id);
		this.#done += 1;
		if (result.status === 'passed') this.#passed += 1;
		else this.#failed += 1;
		this.#countTokens(result);
		if (this.quiet) return;
		if (this.#live) this.#draw();
		else this.out.write(`[${this.#done}/${this.total}] ${terminalText(result.task_id)}: ${result.status}${result.reason ? ` (${result.reason})` : ''}${taskTime(result)}${result.resumed_from === undefined ? '' : ', taken from the resumed attempt'}\n`);
	}

	end(): void {
		clearInterval(this.#timer);
		this.#draw();
		this.#live?.persist();
	}

	#countTokens(result: TaskResult): void {
		if (result.usage === null || this.#tokens === null) return;
		this.#tokens = result.usage.total_tokens === null ? null : this.#tokens + result.usage.total_tokens;
	}

	#draw(): void {
		if (!this.#live) return;
		const now = performance.now();
		this.#live.render(progressFrame({
			total: this.total, done: this.#done, passed: this.#passed, failed: this.#failed,
			elapsedMs: now - this.#t0, tokens: this.#tokens, running: this.#running, now,
		}));
	}
}

/** The task's own wall time, as its result records it; nothing for a task that never started. */
function taskTime(result: TaskResult): string {
	return result.wall_ms === null ? '' : ` ${(result.wall_ms / 1000).toFixed(1)}s`;
}
