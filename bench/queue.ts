import {createServer} from 'node:net';
import {resolve} from 'node:path';
import {PassThrough} from 'node:stream';
import {setTimeout as sleep} from 'node:timers/promises';
import {runInGroup, type GroupRun} from '../process/index.js';
import type {Bench, BenchSize} from './bench-result.js';
import {oneTurnContext, oneTurnPlan} from './one-turn/context.js';
import {clearAttempts, runPlan} from './one-turn/fixture.js';
import {alternate, median, round, spread} from './stats.js';

const sizes = {tiny: {tasks: 2, workers: [1, 2], repetitions: 1}, full: {tasks: 200, workers: [1, 2, 4], repetitions: 2}} as const;
const hlabBin = resolve(import.meta.dirname, '../../bin/hlab.js');

interface Running {
	stop(): Promise<GroupRun>;
}

/** The secret the bench's coordinator and workers share. */
const benchQueueSecret = 'hlab-bench-queue-secret-0123456789';

/** A process the bench keeps running in the background (redis-server, workers), with its stderr readable. */
function background(argv: string[], cwd: string): Running & {stderr(): string} {
	const stopping = new AbortController();
	let text = '';
	const stderr = new PassThrough();
	stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
	// TMPDIR in the bench's scratch folder: a worker's own folder goes with it, even if the worker could not remove it.
	const ended = runInGroup({argv, cwd, env: {TMPDIR: cwd}, signal: stopping.signal, deadlineMs: null, stderr: {kind: 'stream', stream: stderr}});
	return {stderr: () => text, stop: async () => (stopping.abort(), ended)};
}

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>(done => server.listen(0, '127.0.0.1', done));
	const {port} = server.address() as {port: number};
	await new Promise(done => server.close(done));
	return port;
}

/** `count` workers, each taking one task at a time, started and idle before anything is timed. */
async function startWorkers(count: number, url: string, dir: string): Promise<Running[]> {
	const workers = Array.from({length: count}, (_, index) => background([process.execPath, hlabBin, 'queue-node', '--queue', url, '--name', `bench-${index}`], dir));
	for (let waited = 0; !workers.every(worker => worker.stderr().includes('waiting for attempts')); waited += 20) {
		if (waited > 60_000) throw new Error(`workers did not start: ${workers.map(worker => worker.stderr()).join('\n')}`);
		await sleep(20);
	}
	return workers;
}

export const queue: Bench = {
	name: 'queue',
	async run(size: BenchSize) {
		const {tasks, workers: workerCounts, repetitions} = sizes[size];
		// The coordinator and the workers the bench starts inherit it, as a user's shell gives it to both.
		process.env.HLAB_QUEUE_SECRET = benchQueueSecret;
		const context = await oneTurnContext();
		const port = await freePort();
		const redis = background(['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', context.dir], context.dir);
		const url = `redis://127.0.0.1:${port}`;
		try {
			await sleep(300);
			const measured: Record<string, number> = {};
			const floor: Record<string, number> = {};
			// Overhead: the same plan at concurrency 1, the local executor against a coordinator and one worker.
			const serial = await oneTurnPlan(tasks, 1);
			const one = await startWorkers(1, url, context.dir);
			const samples = await alternate(repetitions, async () => (await runPlan(context.dir, serial, tasks)).wallMs, async () => (await runPlan(context.dir, serial, tasks, ['--queue', url])).wallMs);
			await Promise.all(one.map(worker => worker.stop()));
			await clearAttempts(context.dir);
			const [queueMs, localMs] = [median(samples.measured), median(samples.floor)];
			measured.c1_one_worker_wall_ms = round(queueMs, 0);
			measured.overhead_per_task_ms = round((queueMs - localMs) / tasks, 1);
			floor.c1_local_wall_ms = round(localMs, 0);
			// Scaling: a plan at concurrency 4 served by 1, 2, 4 workers of one task each.
			const wide = await oneTurnPlan(tasks, Math.max(...workerCounts));
			for (const count of workerCounts) {
				const running = await startWorkers(count, url, context.dir);
				const run = await runPlan(context.dir, wide, tasks, ['--queue', url]);
				await Promise.all(running.map(worker => worker.stop()));
				await clearAttempts(context.dir);
				measured[`workers_${count}_tasks_per_s`] = round(tasks / (run.wallMs / 1000));
			}
			const ratios = samples.measured.map((value, index) => value / samples.floor[index]!);
			return {
				name: 'queue',
				figure: `${tasks} one-turn tasks at concurrency 1: hlab eval --plan --queue with one local hlab queue-node, wall time (scaling with ${workerCounts.join(', ')} workers at concurrency ${Math.max(...workerCounts)} in measured)`,
				ratio: round(queueMs / localMs),
				ratio_spread: spread(ratios.map(value => round(value))),
				measured,
				floor,
				floor_description: 'the same plan through the local in-process executor (hlab eval --plan, no --queue)',
				repetitions,
				notes: 'queue per task: a BullMQ job added when a lane is free, taken by the worker (a blocking pop), the task run there as locally, its evidence files read, base64-encoded into the job\'s return value and written again by the coordinator; per attempt: the worker\'s own admission of the plan and its own scripted provider (both inside the timed wall), the queue\'s events stream and a stalled-job checker. Redis is local (loopback), so network transfer is not in these figures.',
				target: null,
			};
		} finally {
			await redis.stop();
		}
	},
};

