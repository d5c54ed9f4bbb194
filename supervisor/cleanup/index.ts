/**
 * hlab's leftovers (temporary folders, runtime roots of dead attempts, the digest cache and the pinned store) and
 * their removal (hlab gc); evidence only when named, and only an attempt's that nothing runs in.
 */
export {collectGarbage, type GcLine} from './collect-garbage.js';
export {removeNamedEvidence} from './remove-evidence.js';
