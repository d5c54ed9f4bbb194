export {runInGroup, defaultGraceMs, type RunOptions, type GroupRun} from './run-group.js';
export {ProcessRecord, ProcessFailure, KilledProcess} from './process-record.js';
export type {OutputSink} from './byte-limit.js';
