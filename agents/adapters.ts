import {z} from 'zod';

/** The adapters a spec may name: four third-party agent CLIs, and `command` for any executable. */
export const AdapterId = z.enum(['qwen-code', 'opencode', 'pi', 'codex', 'command']);
export type AdapterId = z.infer<typeof AdapterId>;

/** What harness-lab knows of one adapter before it runs anything: how it is identified, and what it keeps for itself. */
export interface Adapter {
	/** Bumped whenever the adapter changes how it launches its agent, so identities from two versions never compare equal. */
	version: number;
	/** The package's `bin` entry the adapter starts; null for `command`, whose spec names its own executable. */
	bin: string | null;
	/** Flags the adapter sets itself (model, task, approvals, configuration): a spec's `flags` may not name them. */
	reservedFlags: string[];
}

// Stubs until the executor lands: the bin names are the packages' own; the reserved flags are the ones each CLI uses for model, prompt and approvals.
export const adapters: Record<AdapterId, Adapter> = {
	'qwen-code': {version: 1, bin: 'qwen', reservedFlags: ['--model', '-m', '--prompt', '-p', '--yolo', '-y', '--approval-mode', '--openai-api-key', '--openai-base-url']},
	opencode: {version: 1, bin: 'opencode', reservedFlags: ['--model', '-m', '--prompt', '--agent']},
	pi: {version: 1, bin: 'pi', reservedFlags: ['--model', '--provider', '--api-key', '--print', '-p', '--system-prompt']},
	codex: {version: 1, bin: 'codex', reservedFlags: ['--model', '-m', '--config', '-c', '--sandbox', '-s', '--ask-for-approval', '-a', '--dangerously-bypass-approvals-and-sandbox', '--full-auto']},
	command: {version: 1, bin: null, reservedFlags: []},
};
