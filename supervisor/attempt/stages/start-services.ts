import type {CandidateSnapshot} from '../../../engine/candidate/snapshot.js';
import type {ResolvedProvider} from '../../../engine/provider-config.js';
import type {ScriptedConversation} from '../../../scripted/index.js';
import {caseConversations} from '../../../scripted/index.js';
import type {HostSession} from '../../host/index.js';
import type {Plan} from '../../plan/plan-schema.js';
import type {Admission} from './admit-attempt.js';
import type {AttemptHost} from './attempt-host.js';
import type {TaskFailure} from '../task-core/failed-result.js';
import {lanesOf} from './frozen-order.js';
import {agentSandbox, hostSandbox, runnerEnvironment, runnerSandbox} from './attempt-sandbox.js';
import {hostExecutor} from '../executors/host-executor.js';
import {agentExecutor} from '../executors/agent-executor.js';
import type {AdmittedAgent} from '../../agent/index.js';
import {openAttemptAgent, type AttemptAgent} from './attempt-agent.js';
import {loadCandidate, type LoadedCandidate} from './load-candidate.js';
import type {AttemptContext} from './attempt-context.js';
import {startProvider, type ProviderService} from './start-provider.js';
import {loadConversations} from '../../plan/freeze-responses.js';
import {inProcessExecutor} from '../executors/in-process-executor.js';
import {sandboxedRunnerExecutor} from '../executors/sandboxed-runner-executor.js';
import type {Placement} from '../task-core/task-placement.js';
import {createProviderLimiter, ProviderLimiter, type ProviderLimiterShare} from '../../../engine/provider/provider-limiter.js';
import {ServiceWatch} from './service-watch.js';
import {closeEarlyServices, type EarlyServices} from './early-services.js';
import {settle, type Settled} from './settled.js';
import type {Integrity} from '../report/integrity-label.js';
import {attemptIntegrity} from './attempt-integrity.js';

/** Either the tasks may run against this provider, or the first reason the whole denominator fails instead. */
export type Readiness =
	| {failure: null; provider: ResolvedProvider}
	| {failure: TaskFailure; provider: null};

export interface Services {
	host: HostSession | null;
	/** The third-party agent every task runs (`--agent`), admitted; null otherwise. */
	agent: AdmittedAgent | null;
	candidate: CandidateSnapshot | null;
	placement: Placement;
	/** The tasks' in-process code runs in a sandboxed task-runner process, not in the supervisor's threads. */
	sandboxedRunner: boolean;
	bindings: Record<string, string>;
	ready: Readiness;
	/** Whether what these services run is contained, and if not why (attempt.json and report.json). */
	integrity: Integrity;
	/** The services that died during the attempt (the report names each). */
	watch: ServiceWatch;
	/** Ends the threads, then the provider. */
	close(): Promise<void>;
}

/**
 * Starts what the tasks need (provider, host session, candidate, warm threads) side by side, checking in the order
 * that matters: admission, the host, the candidate, the API key, the provider. The first refusal is kept as a value.
 * The host's measure, its spawner and the task threads started beside admission (`early`); what this attempt will not use is closed here.
 */
export async function startServices(attempt: AttemptContext, admission: Admission, early: EarlyServices): Promise<Services> {
	const watch = new ServiceWatch();
	const limiter = limiterOf(attempt.plan, watch);
	// The provider starts while the host and the candidate are measured; if they refuse the attempt it is closed unused.
	const starting = admission.failure === null ? settle(conversationsFor(attempt.plan, admission).then(conversations => startProvider(attempt.plan.provider, attempt.dir, conversations, watch))) : null;
	const {host, agent, candidate} = await measureCode(attempt, admission, early, starting);
	const remote = attempt.options.remotePlacement ?? null;
	// A sandboxed plan's in-process tasks run in a sandboxed runner process; one it cannot have refuses the attempt.
	const sandbox = remote === null && host.session === null && agent.agent === null && agent.failure === null ? runnerSandbox(attempt, admission.cartridge?.dir ?? null) : null;
	const unsandboxable: TaskFailure | null = sandbox !== null && 'problem' in sandbox ? {reason: 'init', message: sandbox.problem} : null;
	// Tasks run elsewhere read the key where they run: the coordinator needs none.
	const refused = admission.failure ?? host.failure ?? agent.failure ?? candidate.failure ?? unsandboxable ?? (remote === null ? authFailure(attempt.plan) : null);
	const runner = sandbox !== null && !('problem' in sandbox) ? sandbox : null;
	const spawner = refused === null && (host.session !== null || agent.agent !== null) && remote === null ? early.spawner : null;
	const inProcess = remote === null && host.session === null && agent.agent === null && runner === null;
	const threads = refused === null && inProcess ? early.threads : null;
	await closeEarlyServices(early, {spawner: spawner !== null, threads: threads !== null});
	const placement: Placement = remote !== null
		? {kind: 'queue', remote: remote(attempt)}
		: {kind: 'local', executor: host.session !== null
			? hostExecutor(host.session, hostSandbox(attempt, host.session), spawner)
			: agent.agent !== null
			? agentExecutor(agent.agent, {sandbox: agentSandbox(attempt, agent.agent), starting: spawner})
			: runner !== null
				? sandboxedRunnerExecutor({sandbox: runner, env: runnerEnvironment(keyVariableOf(attempt.plan)), candidate: candidate.snapshot, threads: attempt.options.threads ?? null, limits: attempt.plan.provider_limits ?? null, harness: attempt.options.harness ?? null})
				: inProcessExecutor(candidate.snapshot, {threads: attempt.options.threads ?? null, limiter, harness: attempt.options.harness ?? null, starting: threads})};
	const placed = placement.kind === 'local' ? placement.executor : placement.remote;
	// In-process threads see the death in the limiter; a sandboxed runner holds its own and is told.
	if (placement.kind === 'local') watch.onDeath(death => placement.executor.providerDied?.(death.atMs));
	const sandboxedRunner = placement.kind === 'local' && runner !== null;
	// The threads load the engine (or the queue opens) while the provider finishes starting.
	const warming = refused === null ? settle(placed.start(lanesOf(attempt.plan))) : null;
	const provider = await readinessOf(starting, refused);
	const services: Services = {
		host: host.session, agent: agent.agent, candidate: candidate.snapshot, placement, sandboxedRunner, bindings: provider.bindings, ready: provider.ready,
		integrity: attemptIntegrity(attempt.plan, {candidate: candidate.snapshot, placement, sandboxedRunner}, admission.cartridge),
		watch,
		close: async () => {
			await placed.close();
			await provider.close();
		},
	};
	await warmedOrClosed(warming, services);
	return services;
}

/** The host (measured beside admission), the agent and the candidate; if measuring them throws, nothing started is left behind. */
async function measureCode(attempt: AttemptContext, admission: Admission, early: EarlyServices, starting: Promise<Settled<ProviderService>> | null): Promise<{host: AttemptHost; agent: AttemptAgent; candidate: LoadedCandidate}> {
	try {
		const measured = await early.host;
		if ('error' in measured) throw measured.error;
		const host = measured.value;
		const agent = await openAttemptAgent(attempt);
		const candidate = await loadCandidate(attempt, admission.failure ?? host.failure ?? agent.failure);
		return {host, agent, candidate};
	} catch (error) {
		await closeEarlyServices(early);
		const started = await starting;
		if (started !== null && 'value' in started) await started.value.close();
		throw error;
	}
}

/** A cartridge plan's cases as the frozen response script plays them; none otherwise. */
/** What the scripted provider plays from a frozen response script: a cartridge's cases, or the plan's tasks. */
async function conversationsFor(plan: Plan, admission: Admission): Promise<ScriptedConversation[]> {
	if (admission.cartridge !== null) return admission.responses === null ? [] : caseConversations(admission.cartridge.cases, admission.responses);
	return loadConversations(plan);
}

function keyVariableOf(plan: Plan): string | null {
	return plan.provider.kind === 'openai-compatible' ? plan.provider.api_key_env : null;
}

function authFailure(plan: Plan): TaskFailure | null {
	const variable = keyVariableOf(plan);
	if (variable === null || process.env[variable]) return null;
	return {reason: 'auth', message: `the API key variable ${variable} is not set`};
}

interface ProviderReadiness {
	ready: Readiness;
	bindings: Record<string, string>;
	close(): Promise<void>;
}

/** A refused attempt closes its provider unused and binds nothing; a provider that could not start refuses it. */
async function readinessOf(starting: Promise<Settled<ProviderService>> | null, refused: TaskFailure | null): Promise<ProviderReadiness> {
	const started = await starting;
	const unused = async (): Promise<void> => undefined;
	if (started !== null && 'error' in started) return {ready: {failure: refused ?? {reason: 'init', message: `the provider could not start: ${started.error.message}`}, provider: null}, bindings: {}, close: unused};
	if (started === null || refused !== null) {
		await started?.value.close();
		return {ready: {failure: refused ?? {reason: 'init', message: 'the provider did not start'}, provider: null}, bindings: {}, close: unused};
	}
	const service = started.value;
	return {ready: {failure: null, provider: service.provider}, bindings: service.bindings, close: () => service.close()};
}

/** Threads that cannot load the engine end the attempt before any task: what was started is closed first. */
async function warmedOrClosed(warming: Promise<Settled<void>> | null, services: Services): Promise<void> {
	const warmed = await warming;
	if (warmed === null || 'value' in warmed) return;
	await services.close();
	throw warmed.error;
}

/**
 * One limiter for the whole attempt, limits or not: a provider's Retry-After pauses every task together, waiting
 * tasks are served in the order they began waiting, and a dead provider service is seen by every thread at once.
 */
function limiterOf(plan: AttemptContext['plan'], watch: ServiceWatch): ProviderLimiterShare {
	const share = createProviderLimiter(plan.provider_limits ?? {});
	const limiter = ProviderLimiter.attach(share) as ProviderLimiter;
	// Every thread's requests see the death in the shared memory: none is sent, or retried, to a dead service.
	watch.onDeath(death => limiter.markProviderDead(death.atMs));
	return share;
}
