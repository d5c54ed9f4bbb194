/** Cartridges: a harness as a folder of data and code, its cases, collectors and graders beside it. */
export {LoadedCartridge, LoadedCase} from './loaded-cartridge.js';
export {loadCartridge, type LoadResult} from './load-cartridge.js';
export {cartridgeToolImplementations} from './cartridge-tools.js';
export {GradeAnswer, type JudgeEndpoint} from './evaluation-protocol.js';
export {runEvaluation} from './run-evaluation.js';
export {caseRecordSchema, cartridgeIdentity, CaseRecord, RunRecord, type ProviderIdentity} from './case-record.js';
export {judgeCase, type Judgement} from './judge-case.js';
export {caseGrade} from './case-grade.js';
export {seedWorkspace} from './seed-workspace.js';
export {CartridgeDiff, diffCartridges} from './diff-cartridges.js';
export {describeCartridge, renderDescription} from './describe-cartridge.js';
