import {existsSync} from 'node:fs';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {installRoot} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';
import {legacySdkSpecifier, sdkDistDir, sdkSpecifier} from './sdk-files.js';

/** The outcome of type-checking a candidate: problems found, or why it was not checked (null when it was). */
export interface TypeCheck {
	problems: string[];
	notChecked: string | null;
}

const typeCheckTimeoutMs = 120_000;

/** A package's folder as Node resolves it from `from` (the candidate's folder first, then this installation), or null. */
function packageDir(name: string, from: string[]): string | null {
	for (const dir of from) {
		try {
			return dirname(createRequire(join(dir, 'resolve.js')).resolve(`${name}/package.json`));
		} catch {
			// Not from here; the next place.
		}
	}
	return null;
}

/** The compiler's entry: its `.js` file when it has one (a loader hook cannot mistake it for CommonJS), else its bin. */
function compilerEntry(typescript: string): string {
	const entry = join(typescript, 'lib', 'tsc.js');
	return existsSync(entry) ? entry : join(typescript, 'bin', 'tsc');
}

/**
 * Type-checks a TypeScript candidate against the SDK's declarations with a TypeScript compiler and Node's types,
 * when both can be found (beside the candidate, or in this installation): an installed hlab ships neither.
 */
export async function typeCheckCandidate(file: string): Promise<TypeCheck> {
	const source = resolve(file);
	if (!/\.[cm]?ts$/.test(source)) return {problems: [], notChecked: 'not a TypeScript file'};
	const from = [dirname(source), installRoot];
	const typescript = packageDir('typescript', from);
	const nodeTypes = packageDir('@types/node', from);
	if (typescript === null || nodeTypes === null) return {problems: [], notChecked: `no ${typescript === null ? 'TypeScript compiler (typescript)' : 'Node types (@types/node)'} found beside the candidate or in hlab`};
	const sdkTypes = join(sdkDistDir, 'index.d.ts');
	const dir = await mkdtemp(join(tmpdir(), 'hlab-typecheck-'));
	try {
		const compilerOptions = {
			strict: true, noEmit: true, skipLibCheck: true, target: 'es2023', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2023'],
			types: ['node'], typeRoots: [dirname(nodeTypes)], paths: {[sdkSpecifier]: [sdkTypes], [legacySdkSpecifier]: [sdkTypes]},
		};
		await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({compilerOptions, files: [source]}));
		const run = await runInGroup({argv: [process.execPath, compilerEntry(typescript), '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], cwd: dirname(source), deadlineMs: typeCheckTimeoutMs, stdoutLimit: 1 << 20, stderrLimit: 1 << 20});
		if (run.record.failure !== null) return {problems: [], notChecked: `the TypeScript compiler did not finish: ${run.record.failure_message}`};
		const output = `${run.stdout?.toString() ?? ''}${run.stderr?.toString() ?? ''}`;
		// Run from the candidate's folder, the compiler names its file as the user does (`policy.ts(3,7): error TS2322: ...`).
		const problems = output.split('\n').map(line => line.trim()).filter(line => / error TS\d+:/.test(line));
		if (run.record.exit_code !== 0 && problems.length === 0) problems.push(`the TypeScript compiler exited ${run.record.exit_code}: ${output.trim().split('\n')[0] ?? ''}`);
		return {problems, notChecked: null};
	} finally {
		await rm(dir, {recursive: true, force: true});
	}
}
