/**
 * `hlab eval --resume DIR`: a new attempt of a crashed or interrupted attempt's plan that takes its sealed finished
 * records (verified against its seal) and runs only the rest of the denominator.
 *
 *   resume-source.ts      the earlier attempt, closed (refused when live or finished; recovered when it has no report)
 *   takeable-records.ts   which of its records the seal vouches for and hold a verdict, and why the others are rerun
 *   resume-attempt.ts     the new attempt, same side and candidate, with those records carried
 */
export {resumeAttempt} from './resume-attempt.js';
