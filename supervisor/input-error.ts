/**
 * Bad input from whoever called hlab: a flag, a file that cannot be read, an output that already exists.
 * The command line maps every InputError, and only it, to exit status 2; `reason` is what callers branch on.
 * A domain error that is always bad input extends this class and names its reason.
 */
export abstract class InputError extends Error {
	abstract readonly reason: string;
}

/** Bad input found by the command line itself (a flag, a combination of flags). */
export class UsageError extends InputError {
	constructor(message: string, readonly reason = 'usage') {
		super(message);
	}
}
