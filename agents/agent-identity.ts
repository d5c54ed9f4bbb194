import {z} from 'zod';
import {AdapterId} from './adapter-id.js';
import {AgentPackage} from './agent-spec.js';

const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** Who the agent is, as attempt.json and the report will name it: two runs with equal identities ran the same agent. */
export const AgentIdentity = z.strictObject({
	schema: z.literal('harness-lab/agent-identity@1'),
	adapter: AdapterId,
	adapter_version: z.int().positive(),
	/** Null for a `command` spec that names a script rather than a package. */
	package: AgentPackage.nullable(),
	/** The store's digest of the installed tree; null when there is no package. */
	installed_digest: Digest.nullable(),
	model: z.string().nullable(),
	flags: z.array(z.string()),
	/** sha256 over the canonical JSON of the spec's `config`. */
	config_digest: Digest,
	/** A `command` spec's script beside it, by its bytes; null when the executable is a package's bin (the installed digest covers it). */
	executable_digest: Digest.nullable().default(null),
});
export type AgentIdentity = z.infer<typeof AgentIdentity>;
