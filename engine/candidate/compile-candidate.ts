import {readFile} from 'node:fs/promises';
import {isBuiltin} from 'node:module';
import {basename, dirname, resolve} from 'node:path';
import type * as esbuild from 'esbuild';
import {sha256} from '../../files/sha256.js';
import {EngineError} from '../engine-error.js';
import {legacySdkSpecifier, sdkDigest, sdkEntry, sdkSpecifier} from './sdk-files.js';
import type {CandidateSnapshot} from './snapshot.js';
import {withEsbuild} from '../../process/esbuild-service.js';

/**
 * The import rule of a single-file candidate: Node builtins stay external, `hlab/sdk` (or its old name) resolves to the
 * project's compiled SDK (bundled in), and anything else the candidate imports is refused by name.
 */
function importPolicy(sourcePath: string): esbuild.Plugin {
	return {
		name: 'hlab-candidate-imports',
		setup(build) {
			build.onResolve({filter: /.*/}, args => {
				if (args.kind === 'entry-point') return undefined;
				// The SDK's own imports resolve normally: they are part of what the SDK is.
				if (args.importer !== sourcePath) return undefined;
				if (isBuiltin(args.path)) return {path: args.path.startsWith('node:') ? args.path : `node:${args.path}`, external: true};
				if (args.path === sdkSpecifier || args.path === legacySdkSpecifier) return {path: sdkEntry};
				return {errors: [{text: `import '${args.path}' is refused: a single-file candidate may import only Node builtins and ${sdkSpecifier}`}]};
			});
		},
	};
}

/** Compiles a candidate file into a snapshot: the exact source, the ESM bundle that runs, and their digests. */
export async function compileCandidate(file: string): Promise<CandidateSnapshot> {
	const sourcePath = resolve(file);
	let source: string;
	try {
		source = await readFile(sourcePath, 'utf8');
	} catch (error) {
		throw new EngineError('init', `cannot read candidate ${file}: ${(error as Error).message}`, {cause: error});
	}
	let result: esbuild.BuildResult<{write: false}>;
	try {
		result = await withEsbuild(api => api.build({
			stdin: {contents: source, loader: sourcePath.endsWith('.js') || sourcePath.endsWith('.mjs') ? 'js' : 'ts', resolveDir: dirname(sourcePath), sourcefile: basename(sourcePath)},
			bundle: true,
			format: 'esm',
			platform: 'node',
			target: 'node22',
			write: false,
			logLevel: 'silent',
			legalComments: 'none',
			plugins: [importPolicy(sourcePath)],
		}));
	} catch (error) {
		const failure = error as esbuild.BuildFailure;
		const messages = (failure.errors ?? []).map(entry => `${entry.location ? `${basename(sourcePath)}:${entry.location.line}:${entry.location.column}: ` : ''}${entry.text}`);
		throw new EngineError('init', `cannot compile candidate ${file}: ${messages.join('; ') || failure.message}`, {cause: error});
	}
	const code = result.outputFiles[0]?.text ?? '';
	return {
		source_path: sourcePath,
		source,
		code,
		source_digest: sha256(source),
		code_digest: sha256(code),
		sdk_digest: sdkDigest(),
	};
}
