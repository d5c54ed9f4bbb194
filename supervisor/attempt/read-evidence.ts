/**
 * The attempt's second face (beside index.ts), for code that reads finished evidence: compare and verify check a
 * ledger and a plan without loading the attempt runner, its worker pool and its providers (bench/README.md, the test suite).
 */
export {readAttemptRecord, verifyAttemptLedger} from './report/attempt-evidence.js';
export type {VerifiedLedger} from './task-core/ledger-chain.js';
export {totalsOf} from './report/totals.js';
export {readPlanFile} from './stages/read-plan.js';
export {readMessages} from './report/read-messages.js';
