import type * as esbuild from 'esbuild';

let building = 0;

/**
 * Runs a build on esbuild's service, a child process esbuild keeps between builds: it is stopped once no build of
 * this process is running, so compiling leaves nothing behind. One counter for every caller, because the service
 * is shared: a second counter could stop it under another caller's build.
 */
export async function withEsbuild<T>(build: (api: typeof esbuild) => Promise<T>): Promise<T> {
	// Loaded on first use: most commands never compile anything.
	const api = await import('esbuild');
	building += 1;
	try {
		return await build(api);
	} finally {
		building -= 1;
		if (building === 0) await api.stop();
	}
}
