/** Running cartridges: describe, eval, replay and diff; what the `hlab cartridge` commands call. */
export {CaseRecord, RunRecord} from './case-record.js';
export {evalCartridge, type EvalProvider} from './eval-cartridge.js';
export {replayRun, ReplayReport} from './replay-run.js';
export {CartridgeDiff, diffCartridges} from './diff-cartridges.js';
export {describeCartridge, renderDescription} from './describe-cartridge.js';
export {renderDiff, renderReplay, renderRun} from './render-results.js';
export {caseConversations} from './case-conversations.js';
export {judgeCase, type Judgement} from './judge-case.js';
export {seedWorkspace} from './seed-workspace.js';
export {cartridgeIdentity} from './eval-cartridge.js';
export {caseRecordSchema, type ProviderIdentity} from './case-record.js';
