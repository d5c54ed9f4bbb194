/** The Harness: what an agent is made of, as data the engine runs and experiments fingerprint. */
export {Harness, HarnessTool, harnessProblem, harnessSchemaVersion, parseHarness} from './harness-schema.js';
export {placeholdersOf, renderTemplate} from './task-template.js';
export {toolParameters} from './tool-parameters.js';
export {HarnessFingerprint, fingerprintHarness} from './fingerprint.js';
export {offeredTools} from './offered-tools.js';
export {builtinAgent} from './builtin-agent.js';
export {builtinTools, DoneArgs} from './builtin-tools.js';
export {HarnessPatch, PatchOperation, PatchOperationName, fingerprintPatch, patchOperationNames, patchSchemaVersion} from './patch-schema.js';
export {ceilingProblems, HarnessCeilings} from './ceilings.js';
export {applyPatch, type PatchResult} from './apply-patch.js';
export {HarnessProposal} from './proposal-schema.js';
export {verifyProposal, type ProposalBounds} from './verify-proposal.js';
