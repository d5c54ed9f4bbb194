/** The agent engine: what experiments evaluate. It knows nothing of the supervisor. */
export {ExecutionOutcome, FailureReason, Usage} from './outcome.js';
export {EngineError, failureOf} from './engine-error.js';
export {ProviderConfig, ResolvedProvider, providerModel, resolveProvider, scriptedModel} from './provider-config.js';
export {failedBeforeStart, runAgent, type RunAgentOptions} from './loop/run-agent.js';
export {systemPrompt} from './loop/system-prompt.js';
export {CandidateSnapshot} from './candidate/snapshot.js';
export {compileCandidate} from './candidate/compile-candidate.js';
export {loadCandidate, defaultPluginId} from './candidate/load-candidate.js';
export {validateCandidate, ValidationVerdict} from './candidate/validate-candidate.js';
export {sdkClosure, sdkDeclarationFiles, sdkDigest, sdkFiles, sdkName, sdkSpecifier, type SdkClosure} from './candidate/sdk-files.js';
export {activatePlugin} from './plugins/activate-plugin.js';
export type {LoadedCapability, LoadedPlugin, PluginOrigin} from './plugins/loaded-plugin.js';
export {Composition, checkLoadedModules, describeLoadedModules, openComposition, selects} from './plugins/composition.js';
export {capabilityCatalog, type CapabilityDescriptor} from './plugins/capability-catalog.js';
export {toolDefinitions, toolNames} from './tools/definitions.js';
export {action, type ToolImplementation, type ToolOutcome} from './tools/implementations.js';
