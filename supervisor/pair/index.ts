export {runPair} from './run-pair.js';
export {PairRecord} from './pair-record.js';
export {pairSummary} from './pair-summary.js';
