import {digestJson} from '../files/digest.js';
import {adapters} from './adapters/index.js';
import type {AgentIdentity} from './agent-identity.js';
import type {AgentSpec} from './agent-spec.js';
import type {InstallManifest} from './store/install-manifest.js';

// Apart from the schema (agent-identity.ts), which every plan and report loads: this needs the adapters' versions, and so all of agents/.
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
