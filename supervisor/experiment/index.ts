/**
 * `hlab experiment`: freeze (or a given plan), the baseline, each candidate, the comparison and its page, in one
 * folder whose files are the ones the steps write when run by hand.
 *
 *   experiment-layout.ts    the folder and the name of each step's output; a folder that exists is refused
 *   run-sides.ts            the baseline and each candidate as attempts of the plan, stopped cleanly by a signal
 *   experiment-verdicts.ts  the last line: each candidate's verdict
 */
export {experimentLayout, type ExperimentCandidate, type ExperimentLayout} from './experiment-layout.js';
export {checkCandidates, runSides} from './run-sides.js';
export {verdictLine} from './experiment-verdicts.js';
