/**
 * The seal on an attempt's evidence: a per-attempt key kept in the user's key store (never in the evidence, never in a
 * sandbox view), a MAC chain over the ledger's records, and the digests of the files each record vouches for.
 *
 *   key-store.ts     where keys live, created once per attempt, read back by attempt id
 *   mac-chain.ts     the seal's schema, sealing a record, walking the chain
 *   sealed-files.ts  the digests a record seals, and what changed since
 */
export {createAttemptKey, keyStoreDir, KeyStoreError, readAttemptKey} from './key-store.js';
export {ChainWalk, checkChain, RecordSeal, sealRecord, sealScheme, type ChainLine, type LinkVerdict} from './mac-chain.js';
export {changedFiles, sealedFiles} from './sealed-files.js';
