/**
 * hlab's leftovers (temporary folders, runtime roots of dead attempts, the digest cache and the pinned store) and
 * their removal (hlab gc); never evidence.
 */
export {collectGarbage, type GcLine} from './collect-garbage.js';
