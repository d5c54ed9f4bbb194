import type {Bench, BenchResult, BenchSize} from './bench-result.js';
import {oneTurnContext, stubPlan} from './one-turn/context.js';
import {clearAttempts, runPlan} from './one-turn/fixture.js';
import {alternate, median, round, spread} from './stats.js';

const sizes = {tiny: {tasks: 2, concurrency: 2, repetitions: 1}, full: {tasks: 100, concurrency: 4, repetitions: 2}} as const;

/**
 * The cost of `--sandbox` for in-process tasks: the same one-turn plan on the plain stub frozen twice, with and without
 * `--sandbox`, each run as `hlab eval --plan`, alternating. Sandboxed, the tasks' code runs in a sandboxed task-runner
 * process under bubblewrap and each tool command in a sandbox of its own; unsandboxed, in the supervisor's threads.
 */
export const sandboxedRunner: Bench = {
	name: 'sandboxed-runner',
	async run(size: BenchSize): Promise<BenchResult> {
		const {tasks, concurrency, repetitions} = sizes[size];
		const context = await oneTurnContext();
		const [plain, sandboxed] = [await stubPlan(tasks, concurrency), await stubPlan(tasks, concurrency, true)];
		const attempt = (plan: string) => async (): Promise<number> => {
			const run = await runPlan(context.dir, plan, tasks);
			await clearAttempts(context.dir);
			return run.wallMs;
		};
		const samples = await alternate(repetitions, attempt(plain), attempt(sandboxed));
		const [sandboxedMs, plainMs] = [median(samples.measured), median(samples.floor)];
		return {
			name: 'sandboxed-runner',
			figure: `${tasks} one-turn tasks through hlab eval --plan on the plain stub at concurrency ${concurrency}: wall time with --sandbox over the same plan without`,
			ratio: round(sandboxedMs / plainMs),
			ratio_spread: spread(samples.measured.map((value, index) => round(value / samples.floor[index]!))),
			measured: {wall_ms: round(sandboxedMs, 0), per_task_ms: round(sandboxedMs / tasks), overhead_per_task_ms: round((sandboxedMs - plainMs) / tasks)},
			floor: {wall_ms: round(plainMs, 0), per_task_ms: round(plainMs / tasks)},
			floor_description: 'the same plan frozen without --sandbox: the tasks run in the supervisor\'s worker threads',
			repetitions,
			notes: 'Both sides do the same tasks (the model answers done at once, no tool command runs). Sandboxed, the attempt also starts the sandboxed task-runner process under bubblewrap and sends each task to it and its result back; that start is inside the timed wall, so a tiny run is mostly start-up. Never asserted.',
			target: null,
		};
	},
};
