/** Cartridges: a harness as a folder of data and code, its cases, collectors and graders beside it. */
export {CaseFile, ContractConfig, Manifest, RuntimeConfig, ToolSpec, cartridgeSchemaVersion} from './cartridge-files.js';
export {CompiledSource, LoadedCartridge, LoadedCase, LoadedEvalModule, LoadedTool} from './loaded-cartridge.js';
export {loadCartridge, type LoadResult} from './load-cartridge.js';
export {cartridgeToolImplementations} from './cartridge-tools.js';
export {CollectAnswer, CollectorResult, FinalState, GradeAnswer, GraderInput, GraderResult} from './evaluation-protocol.js';
export {defaultEvaluationLimits, runEvaluation, type EvaluationLimits, type EvaluationRun} from './run-evaluation.js';
