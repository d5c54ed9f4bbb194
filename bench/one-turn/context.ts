import type {ScriptedServer} from '../../engine/index.js';
import {startOneTurnEndpoint} from './endpoint.js';
import {bundleController, freezePlan, scratch} from './fixture.js';

/**
 * What the one-turn benches share within one `bench/run.js`: a scratch folder, the scripted endpoint
 * (its URL is frozen into every plan), the bundled controller and the plans frozen so far.
 */
interface Context {
	dir: string;
	endpoint: ScriptedServer;
	bundle: string;
	plans: Map<string, Promise<string>>;
	remove(): Promise<void>;
}

let shared: Promise<Context> | null = null;

export function oneTurnContext(): Promise<Context> {
	shared ??= (async () => {
		const space = await scratch('one-turn');
		const endpoint = await startOneTurnEndpoint();
		return {dir: space.dir, endpoint, bundle: await bundleController(space.dir), plans: new Map(), remove: space.remove};
	})();
	return shared;
}

/** The plan of `count` one-turn tasks at `concurrency`, frozen once per run. */
export async function oneTurnPlan(count: number, concurrency: number): Promise<string> {
	const context = await oneTurnContext();
	const key = `${count}x${concurrency}`;
	let plan = context.plans.get(key);
	if (plan === undefined) {
		plan = freezePlan(context.dir, context.bundle, context.endpoint.url, count, concurrency, key);
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
