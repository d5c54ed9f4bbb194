export {runPair, PairInputError, type PairOptions} from './run-pair.js';
export {PairRecord, pairSchema, PairTask, PairTaskSide} from './pair-record.js';
export {syncLedger, emptyTasks} from './sync-ledger.js';
export {pairSummary} from './pair-summary.js';
