export {runInGroup, defaultGraceMs, type RunOptions, type GroupRun} from './run-group.js';
export {ProcessRecord, ProcessFailure, KilledProcess, TreeResources} from './process-record.js';
export {Containment, chooseContainment, containmentVariable} from './containment.js';
export type {OutputSink} from './byte-limit.js';
export {openAttemptScope, type AttemptScope} from './attempt/attempt-scope.js';
export {LeakAudit, LeakedProcess, attemptBackendLimits} from './attempt/leak-record.js';
export {describeLeaks} from './describe-leaks.js';
