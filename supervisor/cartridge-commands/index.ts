/** hlab cartridge eval and replay: a cartridge's cases run outside an experiment, and how their results print. */
export {evalCartridge, type EvalProvider} from './eval-cartridge.js';
export {replayRun, ReplayReport} from './replay-run.js';
export {renderDiff, renderReplay, renderRun} from './render-results.js';
