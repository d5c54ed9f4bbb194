import {mkdir, readdir, rm} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {loadCartridge, type LoadedCartridge, type LoadedCase} from '../../cartridges/index.js';
import {resolveProvider, scriptedModel, type ProviderConfig, type ResolvedProvider} from '../../engine/index.js';
import {writeJson} from '../../files/write-json.js';
import {startScriptedServer, type ResponseScript, type ScriptedServer} from '../../scripted/index.js';
import {cartridgeIdentity} from '../../cartridges/index.js';
import {runRecordSchema, type CaseRecord, type CartridgeIdentity, type ProviderIdentity, type RunRecord} from '../../cartridges/case-record.js';
import {caseConversations} from '../../scripted/case-conversations.js';
import {runCase} from './run-case.js';
import {suiteFailures} from '../../cartridges/verdict.js';
import {inProcessExecutor, type TaskExecutor} from '../attempt/index.js';

/** The model side of an evaluation: a response script played by the scripted provider, or an OpenAI-compatible endpoint. */
export type EvalProvider =
	| {kind: 'scripted'; script: ResponseScript; digest: string; path: string | null}
	| {kind: 'openai-compatible'; config: Extract<ProviderConfig, {kind: 'openai-compatible'}>};

export interface EvalOptions {
	dir: string;
	out: string;
	/** The cases to run, in this order; all of the cartridge's when null. */
	caseIds: string[] | null;
	maxSteps: number | null;
	threshold: number | null;
	/** `--judge`: graders that ask a model run, on this model of the provider's endpoint (its own model when null). */
	judge: {model: string | null} | null;
	provider: EvalProvider;
	/** The run whose recorded responses this evaluation replays. */
	replayOf?: string;
	signal?: AbortSignal;
}

/** Why an evaluation did not run at all: each a reason the command maps to an exit status. */
export type EvalRefusal = {reason: 'cartridge' | 'unknown_case' | 'out_exists' | 'provider' | 'interrupted'; problems: string[]};

export type EvalResult = {ok: true; run: RunRecord; records: CaseRecord[]; cartridge: LoadedCartridge} | ({ok: false} & EvalRefusal);

/** The exit status of a finished evaluation: zero only when everything required ran and passed. */
function exitStatusOf(passed: boolean): number {
	return passed ? 0 : 1;
}

/**
 * `hlab cartridge eval`: loads the cartridge, runs each selected case in its own fresh workspace, judges it with
 * the cartridge's collectors and graders outside the agent, writes one record per case and run.json last.
 */
export async function evalCartridge(options: EvalOptions): Promise<EvalResult> {
	const loaded = await loadCartridge(options.dir);
	if (!loaded.ok) return {ok: false, reason: 'cartridge', problems: loaded.problems};
	const {cartridge} = loaded;
	const selected = selectCases(cartridge, options.caseIds);
	if (!selected.ok) return {ok: false, ...selected.refusal};
	const out = resolve(options.out);
	const output = await prepareOutput(out);
	if (!output.ok) return {ok: false, reason: 'out_exists', problems: [output.problem]};
	const records: CaseRecord[] = [];
	// Nothing ran to keep: what was made would only block a rerun with the same --out.
	const restore = async () => (records.length === 0 ? restoreOutput(out, output.made) : undefined);
	try {
		const result = await runSelected(options, cartridge, selected.cases, out, records);
		if (!result.ok) await restore();
		return result;
	} catch (error) {
		await restore();
		throw error;
	}
}

/** Starts the provider and one thread, runs the cases in order into `records`, and writes run.json last. */
async function runSelected(options: EvalOptions, cartridge: LoadedCartridge, cases: LoadedCase[], out: string, records: CaseRecord[]): Promise<EvalResult> {
	let server: ScriptedServer | null = null;
	// One thread, as an attempt of one lane: the spin of a tool that never yields holds it, never the main thread.
	const executor: TaskExecutor = inProcessExecutor(null);
	const signal = options.signal ?? new AbortController().signal;
	try {
		const provider = await startProvider(options.provider, cases);
		server = provider.server;
		await executor.start(1);
		const startedAt = new Date();
		const t0 = performance.now();
		const identity = cartridgeIdentity(cartridge);
		for (const entry of cases) {
			records.push(await runCase({
				cartridge,
				identity,
				entry,
				caseDir: join(out, 'cases', entry.id),
				executor,
				provider: provider.resolved,
				providerIdentity: providerIdentity(options.provider),
				maxSteps: options.maxSteps,
				threshold: options.threshold,
				judge: options.judge === null ? null : {base_url: provider.resolved.base_url, model: options.judge.model ?? provider.resolved.model, api_key_env: provider.resolved.api_key_env},
				replayOf: options.replayOf ? {run: options.replayOf, case_id: entry.id} : null,
				signal,
			}));
			// The case in flight is recorded; no other starts, and run.json stays unwritten: the evaluation did not finish.
			if (signal.aborted) return {ok: false, reason: 'interrupted', problems: [`interrupted after ${records.length} of ${cases.length} cases; ${join(out, 'run.json')} is not written`]};
		}
		const failures = suiteFailures(cartridge);
		const passed = failures.length === 0 && records.every(record => record.verdict.passed);
		const run: RunRecord = {
			schema: runRecordSchema,
			cartridge: identity,
			provider: providerIdentity(options.provider),
			options: {case: options.caseIds?.join(',') ?? null, max_steps: options.maxSteps, threshold: options.threshold, judge: options.judge},
			replay_of: options.replayOf ?? null,
			started_at: startedAt.toISOString(),
			wall_ms: Math.round(performance.now() - t0),
			cases: records.map(record => ({id: record.case_id, verdict: record.verdict})),
			failures,
			passed,
			exit_status: exitStatusOf(passed),
		};
		// Written last: its absence means the evaluation did not finish.
		await writeJson(join(out, 'run.json'), run, {durable: true, exclusive: true});
		return {ok: true, run, records, cartridge};
	} catch (error) {
		if (error instanceof ProviderRefusal) return {ok: false, reason: 'provider', problems: [error.message]};
		throw error;
	} finally {
		await executor.close();
		await server?.close();
	}
}

function selectCases(cartridge: LoadedCartridge, ids: string[] | null): {ok: true; cases: LoadedCase[]} | {ok: false; refusal: EvalRefusal} {
	if (ids === null) return {ok: true, cases: cartridge.cases};
	const unknown = ids.filter(id => !cartridge.cases.some(entry => entry.id === id));
	if (unknown.length > 0) {
		return {ok: false, refusal: {reason: 'unknown_case', problems: unknown.map(id => `unknown case ${id} (the cartridge has ${cartridge.cases.map(entry => entry.id).join(', ')})`)}};
	}
	return {ok: true, cases: ids.map(id => cartridge.cases.find(entry => entry.id === id)!)};
}

/** The output folder must be new or empty: a run never mixes with another. `made`: this run created it. */
async function prepareOutput(out: string): Promise<{ok: true; made: boolean} | {ok: false; problem: string}> {
	const existing = await readdir(out).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : [`(${error.code})`]));
	if (existing !== null && existing.length > 0) return {ok: false, problem: `the output folder ${out} exists and is not empty; give a new one`};
	await mkdir(out, {recursive: true});
	return {ok: true, made: existing === null};
}

/** Leaves the output folder as it was found: absent, or empty when it was given empty. */
async function restoreOutput(out: string, made: boolean): Promise<void> {
	await rm(out, {recursive: true, force: true});
	if (!made) await mkdir(out);
}

class ProviderRefusal extends Error {}

async function startProvider(provider: EvalProvider, cases: LoadedCase[]): Promise<{server: ScriptedServer | null; resolved: ResolvedProvider}> {
	if (provider.kind === 'openai-compatible') return {server: null, resolved: resolveProvider(provider.config)};
	const conversations = caseConversations(cases, provider.script);
	let server: ScriptedServer;
	try {
		server = await startScriptedServer({tasks: [], conversations});
	} catch (error) {
		throw new ProviderRefusal((error as Error).message);
	}
	return {server, resolved: resolveProvider({kind: 'scripted'}, server.url)};
}


function providerIdentity(provider: EvalProvider): ProviderIdentity {
	if (provider.kind === 'scripted') return {kind: 'scripted', model: scriptedModel, script_digest: provider.digest, script_path: provider.path};
	const {config} = provider;
	return {kind: 'openai-compatible', model: config.model, base_url: config.base_url, api_key_env: config.api_key_env, reasoning_effort: config.reasoning_effort ?? null};
}
