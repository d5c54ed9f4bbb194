import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {startScriptedServer, type ScriptedServer} from '../../scripted/index.js';
import {oneTurnTaskId} from './config.js';
import {hlab, scratch} from './fixture.js';

/**
 * What the one-turn benches share within one `bench/run.js`: a scratch folder, a scripted endpoint for the
 * floors and the peer (the engine's own server, as `--provider scripted` starts it inside hlab) and the plans frozen so far.
 */
interface Context {
	dir: string;
	endpoint: ScriptedServer;
	plans: Map<string, Promise<string>>;
	remove(): Promise<void>;
}

let shared: Promise<Context> | null = null;

export function oneTurnContext(): Promise<Context> {
	shared ??= (async () => {
		const space = await scratch('one-turn');
		return {dir: space.dir, endpoint: await startScriptedServer(), plans: new Map(), remove: space.remove};
	})();
	return shared;
}

/** The plan of `count` trials of the one-turn task at `concurrency` on the scripted provider, frozen once per run by `hlab eval --freeze`. */
export async function oneTurnPlan(count: number, concurrency: number): Promise<string> {
	const context = await oneTurnContext();
	const key = `${count}x${concurrency}`;
	let plan = context.plans.get(key);
	if (plan === undefined) {
		plan = (async () => {
			const policy = join(context.dir, `${key}.policy.json`);
			await writeFile(policy, JSON.stringify({concurrency}));
			const path = join(context.dir, `${key}.plan.json`);
			await hlab(['eval', '--provider', 'scripted', '--task', oneTurnTaskId, '--repeat', String(count), '--max-steps', '2', '--timeout', '5m', '--experiment-policy', policy, '--freeze', path], {cwd: context.dir});
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
	await context.remove();
}
