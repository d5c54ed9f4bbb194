/** The agent engine: what experiments evaluate. It knows nothing of the supervisor. */
export {ExecutionOutcome, EngineFailureReason, ProviderTime} from './outcome.js';
export {EngineError} from './engine-error.js';
export {ProviderConfig, ResolvedProvider, resolveProvider, scriptedModel} from './provider-config.js';
export {failedBeforeStart, runAgent, type RunAgentOptions} from './loop/run-agent.js';
export {ProviderLimits} from './provider/provider-limits.js';
export {createProviderLimiter, ProviderLimiterShare} from './provider/provider-limiter.js';
export {totalProviderTime} from './provider/provider-time-meter.js';
export {systemPrompt} from './loop/system-prompt.js';
export {CandidateSnapshot} from './candidate/snapshot.js';
export {compileCandidate} from './candidate/compile-candidate.js';
export {loadCandidate} from './candidate/load-candidate.js';
export {validateCandidate, ValidationVerdict} from './candidate/validate-candidate.js';
export {legacySdkSpecifier, sdkClosure, sdkDigest, sdkEntry, sdkName, sdkSpecifier} from './candidate/sdk-files.js';
export {activatePlugin} from './plugins/activate-plugin.js';
export type {LoadedPlugin} from './plugins/loaded-plugin.js';
export {capabilityCatalog} from './plugins/capability-catalog.js';
export {toolDefinitions, toolNames} from './tools/definitions.js';
export {action, type ToolImplementation, type ToolOutcome} from './tools/implementations.js';
