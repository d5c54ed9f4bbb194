import {access, chmod, mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {existsSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {z} from 'zod';
import {copyTreeSync} from '../../files/copy-tree.js';
import {digestFile} from '../../files/digest.js';
import {installRoot} from '../../files/install-root.js';
import {runInGroup, shellQuote, type GroupRun} from '../../process/index.js';
import {BuildRecord, buildSchema} from './build-record.js';
import {readCheckoutState} from './checkout-state.js';
import {SourceError} from './git.js';
import {buildDigestOf, digestTree} from './tree-digest.js';
import {writeShippedTsconfig} from './shipped-tsconfig.js';
import {writeJson} from '../../files/write-json.js';

export const launcherName = 'hlab';

const compileTimeoutMs = 300_000;

const PackageJson = z.object({files: z.array(z.string()).optional()}).loose();
const Lock = z.object({packages: z.record(z.string(), z.object({dev: z.boolean().optional(), devOptional: z.boolean().optional()}).loose())}).loose();

export interface BuildHostOptions {
	/** The checkout to build; defaults to the installation this code runs from. */
	root?: string;
	out: string;
	/** The node binary the launcher names; defaults to the one running now. */
	nodePath?: string;
}

/**
 * Builds a self-contained host from a checkout into a new folder that mirrors an installation:
 * `dist/` compiled fresh from the checkout's shipped sources (never a possibly stale dist) and bundled (scripts/bundle.mjs), the package's published
 * folders (tasks and their data files, bin, sdk, examples, controller-protocol), package.json and its lock,
 * the production packages of node_modules copied (not linked), and a launcher `hlab` that names the node binary
 * by absolute path. `build.json` is written last and records every file's digest and the overall digest.
 */
export async function buildHost(options: BuildHostOptions): Promise<BuildRecord> {
	const root = resolve(options.root ?? installRoot);
	const out = resolve(options.out);
	const nodePath = options.nodePath ?? process.execPath;
	const state = await readCheckoutState(root);
	await mkdir(dirname(out), {recursive: true});
	try {
		await mkdir(out);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new SourceError('output_exists', `${out} already exists; each build needs a new folder`);
		throw error;
	}
	const {files: packageFiles = []} = PackageJson.parse(JSON.parse(await readFile(join(root, 'package.json'), 'utf8')));
	const compiler = await compile(root, out, nodePath, packageFiles);
	for (const entry of await publishedEntries(root, packageFiles)) {
		copyTreeSync(join(root, entry), join(out, entry));
	}
	const copied = await copyProductionPackages(root, out);
	await bundle(root, out, nodePath);
	const launcher = join(out, launcherName);
	// Absolute paths: the launcher runs this build with this node whatever the caller's PATH or directory.
	await writeFile(launcher, `#!/bin/sh\n# harness-lab host build of ${state.commit}${state.dirty ? ' (dirty)' : ''}; see build.json\n# NODE_OPTIONS could load code from outside the build (--import, --require), so the build runs without it.\nunset NODE_OPTIONS\nexec ${shellQuote(nodePath)} ${shellQuote(join(out, 'bin', 'hlab.js'))} "$@"\n`);
	await chmod(launcher, 0o755);
	const files = await digestTree(out, rel => rel === 'build.json');
	const node = {path: nodePath, digest: (await digestFile(nodePath)) ?? 'missing', version: await nodeVersion(nodePath)};
	const record = BuildRecord.parse({
		schema: buildSchema,
		built_at: new Date().toISOString(),
		source: {root, commit: state.commit, dirty: state.dirty, source_digest: state.source_digest},
		launcher: launcherName,
		node,
		files,
		packages: {lock_digest: (await digestFile(join(root, 'package-lock.json'))) ?? 'missing', copied},
		compiler,
		digest: buildDigestOf(files, node),
	});
	await writeJson(join(out, 'build.json'), record, {exclusive: true, durable: true});
	return record;
}

/**
 * Compiles the checkout's shipped TypeScript into `out/dist` with the checkout's own compiler; type errors fail the build.
 * The folders whose compiled files the package leaves out (its tests, benches and examples) are not compiled: a third
 * of the sources, which no host runs.
 */
async function compile(root: string, out: string, nodePath: string, packageFiles: string[]): Promise<BuildRecord['compiler']> {
	// The compiler's `.js` entry, not its extensionless bin: a loader hook in the environment cannot mistake it for CommonJS.
	const entry = join(root, 'node_modules', 'typescript', 'lib', 'tsc.js');
	const tsc = existsSync(entry) ? entry : join(root, 'node_modules', 'typescript', 'bin', 'tsc');
	const configDir = await mkdtemp(join(tmpdir(), 'hlab-build-tsconfig-'));
	try {
		const shipped = await writeShippedTsconfig(root, packageFiles, configDir);
		const argv = [nodePath, tsc, '-p', shipped ?? join(root, 'tsconfig.json'), '--outDir', join(out, 'dist')];
		const run = await buildStep(argv, root, `the TypeScript build of ${root}`);
		return {argv, wall_ms: run.record.wall_ms};
	} finally {
		await rm(configDir, {recursive: true, force: true});
	}
}

/** Bundles the build's dist/ with the checkout's bundler, after the packages are copied: the bundle inlines the build's own copies. */
async function bundle(root: string, out: string, nodePath: string): Promise<void> {
	const argv = [nodePath, join(root, 'scripts', 'bundle.mjs'), join(out, 'dist')];
	await buildStep(argv, root, `the bundle of ${out}/dist`);
}

/** One step of the build run in the checkout; a failure ends the build with its first lines of output. */
async function buildStep(argv: string[], root: string, what: string): Promise<GroupRun> {
	// The caller's NODE_OPTIONS (a test runner's loaders, say) must not take part in the build.
	const run = await runInGroup({argv, cwd: root, env: {NODE_OPTIONS: ''}, deadlineMs: compileTimeoutMs, stdoutLimit: 4 * 1024 * 1024, stderrLimit: 4 * 1024 * 1024});
	if (run.record.failure !== null || run.record.exit_code !== 0) {
		const text = `${run.stdout?.toString() ?? ''}${run.stderr?.toString() ?? ''}`.trim().split('\n').slice(0, 20).join('\n');
		throw new SourceError('build_failed', `${what} failed (${run.record.failure_message ?? `exit ${run.record.exit_code}`}):\n${text}`);
	}
	return run;
}

/** The package's published folders and files (package.json `files`) plus the SDK sources, without dist (compiled fresh). */
async function publishedEntries(root: string, packageFiles: string[]): Promise<string[]> {
	const wanted = new Set(['package.json', 'package-lock.json', 'sdk', ...packageFiles]);
	wanted.delete('dist');
	const present: string[] = [];
	for (const entry of [...wanted].sort()) {
		try {
			await access(join(root, entry));
			present.push(entry);
		} catch {
			// A listed file that does not exist (a README not yet written) is simply not part of the build.
		}
	}
	return present;
}

/** Copies every installed production package named by the lock (never dev ones); returns their folders. */
async function copyProductionPackages(root: string, out: string): Promise<string[]> {
	const lock = Lock.parse(JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')));
	const copied: string[] = [];
	for (const [path, entry] of Object.entries(lock.packages)) {
		// Top-level folders only: a nested node_modules comes along with the package holding it.
		if (path === '' || entry.dev === true || entry.devOptional === true || path.split('node_modules/').length !== 2) continue;
		try {
			await access(join(root, path));
		} catch {
			continue; // An optional package for another platform.
		}
		copyTreeSync(join(root, path), join(out, path));
		copied.push(path);
	}
	return copied.sort();
}

async function nodeVersion(nodePath: string): Promise<string> {
	const run = await runInGroup({argv: [nodePath, '--version'], deadlineMs: 30_000, stdoutLimit: 4096});
	return run.stdout?.toString().trim() || 'unknown';
}
