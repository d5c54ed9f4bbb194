import {z} from 'zod';
import {Harness, HarnessFingerprint} from '../harness/index.js';
import {CaseFile, ContractConfig, Manifest, RuntimeConfig} from './cartridge-files.js';
import {ListedExport} from './evaluation-protocol.js';

const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** A compiled TypeScript file of the cartridge: the code that runs and the digests that name it. */
export const CompiledSource = z.object({
	/** Relative to the cartridge folder, with `/`. */
	path: z.string(),
	/** What identities use: the code digest also covers esbuild's path comments, which moving the folder changes. */
	source_digest: Digest,
	code_digest: Digest,
	code: z.string(),
});
export type CompiledSource = z.infer<typeof CompiledSource>;

export const LoadedTool = z.object({
	name: z.string(),
	description: z.string(),
	/** The JSON Schema of the arguments: shown to the model and validating its calls (one schema). */
	parameters: z.record(z.string(), z.json()),
	requires: z.array(z.string()),
	/** The harness's implementation id: `cartridge:<name>.<binding digest>`, so the fingerprint moves with the code. */
	implementation: z.string(),
	definition_digest: Digest,
	execute: CompiledSource,
});
export type LoadedTool = z.infer<typeof LoadedTool>;

export const LoadedCase = z.object({
	id: z.string(),
	path: z.string(),
	case: CaseFile,
	digest: Digest,
	expected_digest: Digest,
});
export type LoadedCase = z.infer<typeof LoadedCase>;

export const LoadedEvalModule = z.object({source: CompiledSource, exports: z.array(ListedExport)});
export type LoadedEvalModule = z.infer<typeof LoadedEvalModule>;

/**
 * A cartridge as loaded: plain data (code included), so it can be stored, frozen into a plan and run elsewhere.
 * The Harness is what the agent is; cases, collectors and graders are the scorer, apart from it.
 */
export const LoadedCartridge = z.object({
	schema: z.literal('harness-lab/loaded-cartridge@1'),
	dir: z.string(),
	manifest: Manifest,
	config: ContractConfig,
	runtime: RuntimeConfig,
	prompt: z.object({path: z.string(), text: z.string(), digest: Digest}),
	tools: z.array(LoadedTool),
	resources: z.array(z.object({name: z.string(), build: CompiledSource})),
	cases: z.array(LoadedCase),
	collectors: z.array(LoadedEvalModule),
	graders: z.array(LoadedEvalModule),
	harness: Harness,
	fingerprint: HarnessFingerprint,
	digests: z.object({
		manifest: Digest,
		config: Digest,
		runtime: Digest,
		prompt: Digest,
		/** Cases, expected data, collectors and graders together: what judges the harness (a plan's scorer identity). */
		suite: Digest,
		/** The SDK the TypeScript files compile against. */
		sdk: Digest,
	}),
});
export type LoadedCartridge = z.infer<typeof LoadedCartridge>;
