// The sandboxed task runner: `node dist/workers/task-runner.js SOCKET`, started by the supervisor under bubblewrap.
import {connect, type Socket} from 'node:net';
import {createProviderLimiter, ProviderLimiter, type ProviderLimiterShare} from '../engine/provider/provider-limiter.js';
import {checkSandbox, sandboxVariable} from '../process/index.js';
import {readLines, writeLine} from './json-lines.js';
import type {RunnerAnswer, RunnerRequest, RunnerStart, RunnerTask, RunnerTaskRun} from './runner-protocol.js';
import {runnerLineLimit} from './runner-protocol.js';
import {TaskPool, type PoolRun} from './task-pool.js';

/**
 * Hosts the attempt's task pool inside the sandbox: the threads that run candidate plugins and cartridge tools are
 * this process's, so they see only what the sandbox shows (no evidence, no plan, no key). It relays each task from
 * the supervisor's socket to the pool and the pool's answer back; the supervisor grades and records, never this.
 */
function serve(socket: Socket): void {
	let pool: Promise<StartedPool> | null = null;
	const running = new Map<number, AbortController>();
	const send = (answer: RunnerAnswer): void => writeLine(socket, answer);
	readLines(socket, runnerLineLimit, line => {
		const request = JSON.parse(line) as RunnerRequest;
		if (request.kind === 'start') {
			pool = startPool(request);
			void pool.then(started => send({kind: 'ready', threads: started.pool.size.threads}));
		} else if (request.kind === 'abort') {
			running.get(request.id)?.abort();
		} else if (request.kind === 'provider_died') {
			void pool?.then(started => (ProviderLimiter.attach(started.limiter) as ProviderLimiter).markProviderDead(request.at_ms));
		} else if (pool !== null) {
			void runTask(pool, request, running).then(run => send({kind: 'done', id: request.id, run: answerOf(run)}));
		}
	}, () => socket.destroy());
	// The supervisor closing the channel is the end of the attempt: the pool closes, and this process with it.
	socket.on('close', () => {
		void (pool ?? Promise.resolve(null)).then(started => started?.pool.close()).finally(() => process.exit(0));
	});
}

interface StartedPool {
	pool: TaskPool;
	candidate: RunnerStart['candidate'];
	limiter: ProviderLimiterShare;
}

async function startPool(start: RunnerStart): Promise<StartedPool> {
	containCommands();
	const pool = await TaskPool.warm(start.size);
	return {pool, candidate: start.candidate, limiter: createProviderLimiter(start.limits ?? {})};
}

/**
 * Tool commands get a sandbox of their own inside this one (no network, their workspace alone writable) where bubblewrap
 * can nest; where it cannot, they share this sandbox, which still hides what the runner cannot see.
 */
function containCommands(): void {
	if (process.env[sandboxVariable] && !checkSandbox().ok) process.env[sandboxVariable] = '';
}

async function runTask(starting: Promise<StartedPool>, request: RunnerTask, running: Map<number, AbortController>): Promise<PoolRun> {
	const {pool, candidate, limiter} = await starting;
	const controller = new AbortController();
	running.set(request.id, controller);
	try {
		return await pool.run({...request.job, candidate, limiter}, {signal: controller.signal});
	} finally {
		running.delete(request.id);
	}
}

function answerOf(run: PoolRun): RunnerTaskRun {
	return run.kind === 'result' ? {kind: 'result', result: run.result} : {kind: run.kind, message: run.message};
}

serve(connect(process.argv[2]!));
