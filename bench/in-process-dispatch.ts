import type {Bench, BenchSize} from './bench-result.js';
import {oneTurnContext, oneTurnPlan} from './one-turn/context.js';
import {clearAttempts, piscinaFloor, runPlan} from './one-turn/fixture.js';
import {alternate, median, round, spread} from './stats.js';

export const inProcessSizes = {tiny: {tasks: 2, concurrencies: [2], repetitions: 1}, full: {tasks: 1000, concurrencies: [1, 8, 64], repetitions: 2}} as const;

export const inProcessDispatch: Bench = {
	name: 'in-process-dispatch',
	async run(size: BenchSize) {
		const {tasks, concurrencies, repetitions} = inProcessSizes[size];
		const context = await oneTurnContext();
		const measured: Record<string, number> = {};
		const floor: Record<string, number> = {};
		const ratios: Record<number, number> = {};
		const allRatios: number[] = [];
		for (const concurrency of concurrencies) {
			const plan = await oneTurnPlan(tasks, concurrency);
			const samples = await alternate(repetitions, () => piscinaFloor(context.dir, context.endpoint.url, tasks, concurrency), async () => {
				const run = await runPlan(context.dir, plan, tasks);
				await clearAttempts(context.dir);
				return run.wallMs;
			});
			const [hlabMs, floorMs] = [median(samples.measured), median(samples.floor)];
			measured[`c${concurrency}_tasks_per_s`] = round(tasks / (hlabMs / 1000));
			measured[`c${concurrency}_wall_ms`] = round(hlabMs, 0);
			floor[`c${concurrency}_tasks_per_s`] = round(tasks / (floorMs / 1000));
			floor[`c${concurrency}_wall_ms`] = round(floorMs, 0);
			ratios[concurrency] = hlabMs / floorMs;
			allRatios.push(...samples.measured.map((value, index) => value / samples.floor[index]!));
		}
		const headline = concurrencies.includes(8 as never) ? 8 : concurrencies.at(-1)!;
		const ratio = round(ratios[headline]!);
		return {
			name: 'in-process-dispatch',
			figure: `${tasks} one-turn tasks (answer_from_prompt --repeat ${tasks}) through hlab eval --plan on the scripted provider, wall time at concurrency ${headline} (also ${concurrencies.join(', ')} in measured)`,
			ratio,
			ratio_spread: spread(allRatios.map(value => round(value))),
			measured,
			floor,
			floor_description: 'a bare piscina pool at the same concurrency: the same chat call to the same scripted server and one file written per task',
			repetitions,
			notes: 'hlab per task: a fresh workspace set up from the task files, a worker-thread agent run with its journal and transcript, the independent grader, evidence export and a flushed ledger record; per attempt: process start, admission, the attempt record (digests of the build and the node binary) and its own scripted server. The floor does one HTTP call and one file write per task, against a server started before timing.',
			target: headline === 8 ? {description: 'overhead at concurrency 8 within 2× of its floor', met: ratio <= 2} : null,
		};
	},
};
