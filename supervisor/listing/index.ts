/**
 * What is already on disk: past attempts and decisions under a folder (hlab ls), streamed, one line each.
 */
export {listEvidence} from './list-evidence.js';
export {headerText, lineText} from './listing-line.js';
export {findEvidence, isAttemptDir} from './find-evidence.js';
