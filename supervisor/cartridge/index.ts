/** Running cartridges: describe, eval, replay and diff; what the `hlab cartridge` commands call. */
export {CaseRecord, Exchange, Failure, ProviderIdentity, RunRecord, Verdict} from './case-record.js';
export {evalCartridge, exitStatusOf, type EvalOptions, type EvalProvider, type EvalResult} from './eval-cartridge.js';
export {replayRun, ReplayReport, type ReplayResult} from './replay-run.js';
export {CartridgeDiff, diffCartridges} from './diff-cartridges.js';
export {describeCartridge, renderDescription} from './describe-cartridge.js';
export {renderDiff, renderReplay, renderRun} from './render-results.js';
