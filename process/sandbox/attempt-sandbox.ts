import {z} from 'zod';
import type {Sandbox} from './sandbox-options.js';

/**
 * The attempt's sandbox, published to its worker threads through the environment as the attempt marker is:
 * `{"hidden": [...], "network": false}`. Each tool command adds its own workspace as the one writable path.
 */
export const sandboxVariable = 'HLAB_SANDBOX';

/** `workdir`: where each tool command sees its workspace besides its own path (a Harbor task's WORKDIR, e.g. `/app`). */
const Published = z.object({hidden: z.array(z.string()), network: z.boolean(), workdir: z.string().optional()});

export function publishSandbox(sandbox: z.infer<typeof Published> | null): void {
	if (sandbox === null) delete process.env[sandboxVariable];
	else process.env[sandboxVariable] = JSON.stringify(sandbox);
}

/** Where the attempt's tool commands see their workspace besides its own path (a Harbor task's WORKDIR); null when nowhere else. */
export function publishedWorkdir(): string | null {
	const value = process.env[sandboxVariable];
	if (value === undefined || value === '') return null;
	return Published.parse(JSON.parse(value)).workdir ?? null;
}

/** The sandbox a tool command in `workspace` runs in, or undefined when the attempt has none. */
export function sandboxFor(workspace: string): Sandbox | undefined {
	const value = process.env[sandboxVariable];
	if (value === undefined || value === '') return undefined;
	const published = Published.parse(JSON.parse(value));
	const mounts = published.workdir === undefined ? {} : {mounts: [{source: workspace, target: published.workdir, writable: true}]};
	return {writable: [workspace], readable: [], hidden: published.hidden, network: published.network, ...mounts};
}
