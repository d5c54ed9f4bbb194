import {existsSync} from 'node:fs';
import {mkdir} from 'node:fs/promises';
import {dirname, join, relative, resolve} from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';
import type {ControllerIdentity} from '../../controller-protocol/index.js';
import {runInGroup} from '../../process/index.js';
import {pinIdentity} from './pin-identity.js';
import {writeJson} from '../../files/write-json.js';
import {legacySdkSpecifier, sdkEntry, sdkSpecifier} from '../../engine/index.js';

const entryPath = join('examples', 'controller', 'experiment-controller.ts');

/** The package root: the nearest directory above this module that holds the sample's source. */
function packageRoot(): string {
	let dir = dirname(fileURLToPath(import.meta.url));
	while (!existsSync(join(dir, entryPath))) {
		const parent = dirname(dir);
		if (parent === dir) throw new Error(`cannot find ${entryPath} above ${fileURLToPath(import.meta.url)}`);
		dir = parent;
	}
	return dir;
}

function esbuildExecutable(): string {
	return createRequire(import.meta.url).resolve('esbuild/bin/esbuild');
}

/**
 * Bundles the sample controller with everything it imports into `DIR/experiment-controller.mjs`,
 * pins it together with this Node executable, and writes the identity to `DIR/controller.json`.
 */
export async function buildSampleController(outDir: string): Promise<ControllerIdentity> {
	const root = packageRoot();
	// Paths in the bundle's comments are relative to the package, so the bytes do not depend on the caller's directory.
	return buildController(join(root, entryPath), outDir, root);
}

/**
 * Bundles a controller's entry file (one that imports `hlab/sdk`, or its old name, and Node builtins) the same way,
 * wherever it lives: the SDK comes from this installation.
 */
export async function buildController(entry: string, outDir: string, cwd = dirname(resolve(entry))): Promise<ControllerIdentity> {
	const out = resolve(outDir);
	const bundle = join(out, 'experiment-controller.mjs');
	await mkdir(out, {recursive: true});
	const sdkAliases = [sdkSpecifier, legacySdkSpecifier].map(specifier => `--alias:${specifier}=${sdkEntry}`);
	// The esbuild executable runs supervised like every other child, instead of as the API's unsupervised service process.
	const run = await runInGroup({
		argv: [
			esbuildExecutable(), relative(cwd, resolve(entry)), '--bundle', '--platform=node', '--format=esm', '--target=node22',
			'--legal-comments=none', '--log-level=warning', ...sdkAliases, `--outfile=${bundle}`,
		],
		cwd,
		deadlineMs: 60_000,
		stdoutLimit: 1024 * 1024,
		stderrLimit: 1024 * 1024,
	});
	if (run.record.failure !== null || run.record.exit_code !== 0) {
		const why = run.record.failure_message ?? `exit status ${run.record.exit_code ?? run.record.signal}`;
		throw new Error(`esbuild could not bundle ${entry} (${why}): ${run.stderr?.toString('utf8').trim() ?? ''}`);
	}
	const identity = await pinIdentity([process.execPath, bundle], [process.execPath, bundle]);
	await writeJson(join(out, 'controller.json'), identity, {durable: true});
	return identity;
}
