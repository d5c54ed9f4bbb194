import {InputError} from '../supervisor/input-error.js';

/** Exit statuses shared by every command; the README documents them. */
export const okExit = 0;
/** A run finished but did not pass, a decision rejected the candidate, or something failed that was not bad input. */
export const failedExit = 1;
/** Bad input: thrown as an `InputError` (supervisor/input-error.ts) and mapped to this status in main.ts alone. */
export const usageExit = 2;
/** A pinned controller's `accept` answered `revise`: neither accepted nor rejected, the candidate should be reworked. */
export const reviseExit = 3;
/** The rule's gates hold but the improvement is not significant at `min_confidence`: rerun with more trials (the decision says how many). */
export const insufficientExit = 4;
/** `hlab supervise`: stdout or stderr exceeded its byte limit. */
export const outputLimitExit = 123;
/** `hlab supervise`: the deadline was reached, as timeout(1) reports it. */
export const timeoutExit = 124;
/** `hlab supervise`: the command could not be started. */
export const spawnExit = 127;

/** Prints a one-line failure that is not bad input and sets exit status 1; bad input is thrown as an InputError instead. */
export function fail(message: string): void {
	say(message, failedExit);
}

/** The one place where a thrown error becomes an exit: an InputError exits 2, anything else 1, each with one `hlab:` line. */
export function failOn(error: unknown): void {
	if (error instanceof InputError) say(error.message, usageExit);
	else say(error instanceof Error ? error.message : String(error), failedExit);
}

function say(message: string, status: number): void {
	process.stderr.write(`hlab: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
	process.exitCode = status;
}
