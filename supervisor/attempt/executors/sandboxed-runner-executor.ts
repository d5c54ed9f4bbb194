import type {CandidateSnapshot} from '../../../engine/candidate/snapshot.js';
import type {ProviderLimits} from '../../../engine/provider/provider-limits.js';
import type {Harness} from '../../../harness/index.js';
import {hardDeadline, type Sandbox} from '../../../process/index.js';
import {poolSize} from '../../../workers/pool-size.js';
import {startMeteringProxy, writeMeteringRecord} from '../../host/index.js';
import {agentInput, type ExecutionJob, type TaskExecutor} from '../task-core/task-execution.js';
import {poolExecution} from './in-process-executor.js';
import {startRunner, type RunnerProcess} from './runner-process.js';

export interface RunnerSetup {
	/** The runner's sandbox: the attempt's hidden paths, the tasks' runtime folder writable. */
	sandbox: Sandbox;
	/** The runner's whole environment, without any secret. */
	env: Record<string, string | undefined>;
	candidate: CandidateSnapshot | null;
	threads?: number | null;
	limits?: ProviderLimits | null;
	harness?: Harness | null;
}

/**
 * The in-process executor of a sandboxed plan: the same piscina pool, but in a task-runner process of its own under
 * bubblewrap, so candidate plugins and cartridge tools never share the supervisor's process, its key or its files.
 * Each task reaches the model through its own metering proxy here, which adds the key and counts what it spends: that
 * count is the task's usage, the engine's own figure a claim beside it.
 */
export function sandboxedRunnerExecutor(setup: RunnerSetup): TaskExecutor {
	let runner: RunnerProcess | null = null;
	return {
		timing: 'in-process',
		get threads() {
			return runner?.threads ?? null;
		},
		async start(lanes) {
			runner = await startRunner({sandbox: setup.sandbox, env: setup.env, start: {size: poolSize(lanes, setup.threads ?? null), candidate: setup.candidate, limits: setup.limits ?? null}});
		},
		async execute(job) {
			if (runner === null) throw new Error('the sandboxed task runner was not started');
			const keyVariable = job.provider.api_key_env;
			const proxy = await startMeteringProxy(job.provider, keyVariable === null ? null : process.env[keyVariable] ?? null);
			const t0 = performance.now();
			const run = await runner.run(runnerJob(job, proxy.provider, setup.harness ?? null), {signal: job.signal, answerWithinMs: hardDeadline(job.deadlineMs)}).finally(() => proxy.close());
			const wall_ms = performance.now() - t0;
			const evidence = await writeMeteringRecord(job.paths, {usage: proxy.usage(), requests: proxy.requests(), refusals: proxy.refusals()});
			const execution = poolExecution(run);
			if (execution.outcome === null) return {...execution, wall_ms, evidence};
			return {...execution, outcome: {...execution.outcome, usage: proxy.usage()}, usageClaim: execution.outcome.usage, wall_ms, evidence};
		},
		providerDied(atMs) {
			runner?.providerDied(atMs);
		},
		async close() {
			await runner?.close();
		},
	};
}

/** What crosses to the runner: the engine's options with the proxy as the provider, and a cartridge without its judges. */
function runnerJob(job: ExecutionJob, provider: ExecutionJob['provider'], harness: Harness | null): Parameters<RunnerProcess['run']>[0] {
	const base = agentInput(job, provider);
	if (job.agent !== undefined) {
		// The cases' expected data, the collectors and the graders are the scorer's: the tools need none of them.
		const data = {...job.agent.cartridge.data, cases: [], collectors: [], graders: []};
		return {...base, harness: job.agent.harness, cartridge: {data, case_id: job.agent.cartridge.case_id}};
	}
	return harness === null ? base : {...base, harness};
}
