/** Agent specs and harness-lab's store of agent packages: what the third-party agent executor builds on. */
export {AdapterId, adapters, type Adapter} from './adapters.js';
export {AgentSpec, AgentPackage, AgentConfig, agentSpecSchema} from './agent-spec.js';
export {readAgentSpec, checkSpec, type LoadedSpec, type SpecResult} from './read-agent-spec.js';
export {AgentIdentity, agentIdentity} from './agent-identity.js';
export {installAgent, verifyAgent} from './agent-store.js';
export {agentStoreDir, installDir, storeVariable} from './store/store-root.js';
export {InstallManifest, installManifestName} from './store/install-manifest.js';
