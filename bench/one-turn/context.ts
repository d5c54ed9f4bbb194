import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {startScriptedServer, type ScriptedServer} from '../../scripted/index.js';
import {oneTurnTaskId} from './config.js';
import {hlab, scratch} from './fixture.js';
import {startStub, type Stub} from './stub.js';

/**
 * What the one-turn benches share within one `bench/run.js`: a scratch folder, a scripted endpoint for the
 * scripted floors (the engine's own server, as `--provider scripted` starts it inside hlab), the plain stub
 * (`stub.ts`) that hlab's OpenAI-compatible provider, promptfoo and the raw HTTP floor all call, and the plans frozen so far.
 */
interface Context {
	dir: string;
	endpoint: ScriptedServer;
	stub: Stub;
	plans: Map<string, Promise<string>>;
	remove(): Promise<void>;
}

let shared: Promise<Context> | null = null;

export function oneTurnContext(): Promise<Context> {
	shared ??= (async () => {
		const space = await scratch('one-turn');
		return {dir: space.dir, endpoint: await startScriptedServer(), stub: await startStub(), plans: new Map(), remove: space.remove};
	})();
	return shared;
}

/** The plan of `count` trials of the one-turn task at `concurrency` on the scripted provider, frozen once per run by `hlab eval --freeze`. */
export function oneTurnPlan(count: number, concurrency: number): Promise<string> {
	return frozenPlan(`${count}x${concurrency}`, count, concurrency, ['--provider', 'scripted']);
}

/** The same plan on hlab's OpenAI-compatible provider against the shared stub, no API key sent; `--sandbox` frozen in when asked. */
export async function stubPlan(count: number, concurrency: number, sandboxed = false): Promise<string> {
	const {stub} = await oneTurnContext();
	const sandbox = sandboxed ? ['--sandbox'] : [];
	return frozenPlan(`stub-${count}x${concurrency}${sandboxed ? '-sandboxed' : ''}`, count, concurrency, ['--provider', 'openai-compatible', '--base-url', stub.url, '--model', 'stub', '--api-key-env', '', ...sandbox]);
}

async function frozenPlan(key: string, count: number, concurrency: number, provider: string[]): Promise<string> {
	const context = await oneTurnContext();
	let plan = context.plans.get(key);
	if (plan === undefined) {
		plan = (async () => {
			const policy = join(context.dir, `${key}.policy.json`);
			await writeFile(policy, JSON.stringify({concurrency}));
			const path = join(context.dir, `${key}.plan.json`);
			await hlab(['eval', ...provider, '--task', oneTurnTaskId, '--repeat', String(count), '--max-steps', '2', '--timeout', '5m', '--experiment-policy', policy, '--freeze', path], {cwd: context.dir});
			return path;
		})();
		context.plans.set(key, plan);
	}
	return plan;
}

/** Stops the endpoint and removes the scratch folder (called once, after the last bench). */
export async function closeOneTurnContext(): Promise<void> {
	if (shared === null) return;
	const context = await shared;
	shared = null;
	await context.endpoint.close();
	await context.stub.close();
	await context.remove();
}
