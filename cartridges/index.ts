/** Cartridges: a harness as a folder of data and code, its cases, collectors and graders beside it. */
export {LoadedCartridge, LoadedCase, LoadedEvalModule} from './loaded-cartridge.js';
export {loadCartridge, type LoadResult} from './load-cartridge.js';
export {cartridgeToolImplementations} from './cartridge-tools.js';
export {CollectAnswer, CollectorResult, FinalState, GradeAnswer, GraderResult, type JudgeEndpoint} from './evaluation-protocol.js';
export {runEvaluation} from './run-evaluation.js';
