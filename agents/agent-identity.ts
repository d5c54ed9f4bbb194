import {z} from 'zod';
import {digestJson} from '../files/digest.js';
import {AdapterId} from './adapter-id.js';
import {adapters} from './adapters/index.js';
import {AgentPackage, type AgentSpec} from './agent-spec.js';
import type {InstallManifest} from './store/install-manifest.js';

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

/** The identity of a spec and, for a packaged agent, its verified installation; for a script beside the spec, its digest. */
export function agentIdentity(spec: AgentSpec, installed: InstallManifest | null, executableDigest: string | null = null): AgentIdentity {
	const pkg = spec.package ?? null;
	if (pkg !== null && (installed === null || installed.package.name !== pkg.name || installed.package.version !== pkg.version)) {
		throw new Error(`the identity of ${pkg.name}@${pkg.version} needs its own install manifest`);
	}
	return {
		schema: 'harness-lab/agent-identity@1',
		adapter: spec.adapter,
		adapter_version: adapters[spec.adapter].version,
		package: pkg,
		installed_digest: pkg === null ? null : installed!.digest,
		model: spec.model,
		flags: spec.flags,
		config_digest: digestJson(spec.config),
		executable_digest: executableDigest,
	};
}
