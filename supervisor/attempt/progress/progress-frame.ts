import {terminalText} from '../../../process/index.js';

/** What the live display shows at one moment. */
export interface ProgressState {
	total: number;
	done: number;
	passed: number;
	failed: number;
	elapsedMs: number;
	/** Tokens of the finished tasks; null once one of them reached the model without a known total. */
	tokens: number | null;
	/** Task ids now running, with when each started (performance.now()). */
	running: Map<string, number>;
	now: number;
}

/** How many running tasks are named; the rest are counted. */
const namedRunning = 6;

/** The lines of one frame: a count line, and one line naming the tasks now running. */
export function progressFrame(state: ProgressState): string[] {
	const counts = [
		`tasks ${state.done}/${state.total} done`,
		`${state.running.size} running`,
		`${state.passed} passed`,
		`${state.failed} failed`,
		`${seconds(state.elapsedMs)} elapsed`,
		timeLeft(state),
		state.tokens === null ? 'tokens unknown' : `${state.tokens.toLocaleString('en-US')} tokens so far`,
	];
	return [counts.join(', '), runningLine(state)];
}

/** The rate of finished tasks so far applied to those left; unknown before the first one finishes. */
function timeLeft(state: ProgressState): string {
	if (state.done >= state.total) return 'none left';
	if (state.done === 0) return 'time left unknown';
	const perTask = state.elapsedMs / state.done;
	return `~${seconds(perTask * (state.total - state.done))} left`;
}

function runningLine(state: ProgressState): string {
	if (state.running.size === 0) return 'running: none';
	const oldestFirst = [...state.running].sort((a, b) => a[1] - b[1]);
	const named = oldestFirst.slice(0, namedRunning).map(([id, since]) => `${terminalText(id)} (${seconds(state.now - since)})`);
	const more = oldestFirst.length - named.length;
	return `running: ${named.join(', ')}${more > 0 ? `, +${more} more` : ''}`;
}

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)}s`;
}
