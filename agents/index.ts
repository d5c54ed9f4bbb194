/** Agent specs and harness-lab's store of agent packages: what the third-party agent executor builds on. */
export {AgentSpec} from './agent-spec.js';
export {readAgentSpec, checkSpec, type LoadedSpec} from './read-agent-spec.js';
export {AgentIdentity} from './agent-identity.js';
export {agentIdentity} from './identity-of-spec.js';
export {installAgent, verifyAgent} from './agent-store.js';
export {InstallManifest} from './store/install-manifest.js';
export {adapterOf} from './adapters/index.js';
export type {AgentTask, AgentLaunch, AgentOutputs, AgentCollected, AgentClassification} from './adapter-contract.js';
export {identifyAgent} from './identify-agent.js';
export {agentStoreDir, installDir} from './store/store-root.js';
