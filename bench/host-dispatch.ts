import {spawn} from 'node:child_process';
import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import type {Bench, BenchSize} from './bench-result.js';
import {oneTurnContext, oneTurnPlan} from './one-turn/context.js';
import {oneTurnPrompt} from './one-turn/config.js';
import {clearAttempts, runPlan, writeTrivialHost} from './one-turn/fixture.js';
import {alternate, median, round, spread} from './stats.js';

/** The floor: the same executable spawned by hand at the same concurrency, given a request like the supervisor's, one answer line read. */
export async function bareSpawns(dir: string, exe: string, url: string, count: number, concurrency: number): Promise<number> {
	const out = join(dir, `spawn-floor-${Math.random().toString(36).slice(2)}`);
	await mkdir(out);
	const digest = `sha256:${'0'.repeat(64)}`;
	const one = (index: number): Promise<void> => new Promise((resolve, reject) => {
		const child = spawn(exe, ['host-worker'], {stdio: ['pipe', 'pipe', 'inherit']});
		let answer = '';
		child.stdout.on('data', (chunk: Buffer) => (answer += chunk.toString()));
		child.on('error', reject);
		child.on('close', code => (code === 0 && answer.endsWith('\n') ? resolve() : reject(new Error(`trivial host ended with ${code}`))));
		child.stdin.end(JSON.stringify({
			version: 1, kind: 'task', task: {id: `t${index}`, prompt: oneTurnPrompt}, workspace: out, state_dir: out,
			provider: {base_url: url, model: 'reference', api_key_env: null}, max_steps: 2, deadline_ms: 60_000, plan_digest: digest, expected_binary_digest: digest,
		}));
	});
	const started = performance.now();
	let next = 0;
	await Promise.all(Array.from({length: Math.min(concurrency, count)}, async () => {
		while (next < count) await one(next++);
	}));
	return performance.now() - started;
}

export const hostSizes = {tiny: {tasks: 2, concurrency: 2, repetitions: 1}, full: {tasks: 200, concurrency: 8, repetitions: 2}} as const;

export const hostDispatch: Bench = {
	name: 'host-dispatch',
	async run(size: BenchSize) {
		const {tasks, concurrency, repetitions} = hostSizes[size];
		const context = await oneTurnContext();
		const plan = await oneTurnPlan(tasks, concurrency);
		const exe = await writeTrivialHost(context.dir, 0);
		const samples = await alternate(repetitions, () => bareSpawns(context.dir, exe, context.endpoint.url, tasks, concurrency), async () => {
			const run = await runPlan(context.dir, plan, tasks, ['--candidate-host', exe]);
			await clearAttempts(context.dir);
			return run.wallMs;
		});
		const [hlabMs, floorMs] = [median(samples.measured), median(samples.floor)];
		const ratio = round(hlabMs / floorMs);
		return {
			name: 'host-dispatch',
			figure: `${tasks} host-candidate tasks (a trivial protocol-v1 shell script) at concurrency ${concurrency}: wall time`,
			ratio,
			ratio_spread: spread(samples.measured.map((value, index) => round(value / samples.floor[index]!))),
			measured: {wall_ms: round(hlabMs, 0), tasks_per_s: round(tasks / (hlabMs / 1000))},
			floor: {wall_ms: round(floorMs, 0), tasks_per_s: round(tasks / (floorMs / 1000))},
			floor_description: 'child_process.spawn of the same executable at the same concurrency, the request written to stdin and one answer line read',
			repetitions,
			// A tiny run measures start-up, not dispatch.
			target: size === 'tiny' ? null : {description: 'within 1.3× of bare spawns of the same executable', met: ratio <= 1.3},
			notes: 'hlab per task: a workspace, a fresh-task checkpoint and request record, the executable in its own supervised process group (deadline, byte limits, sweep) with a process.json, the answer checked against the measured binary, the independent grader, evidence export and a flushed ledger record; per attempt: the host is measured before and after. The floor spawns the executable and reads its answer.',
		};
	},
};
