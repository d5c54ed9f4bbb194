/** A unit could not start without crossing a limit: the search stops with spending-limit (not an error). */
export class SpendingLimitStop extends Error {
	readonly reason = 'spending-limit';
}

/** A unit measured more than it reserved: the search stops, its report is written, then this is raised. */
export class SpendingExceededError extends Error {
	readonly reason = 'spending-exceeded';
}

/** The attempt runner refused to run a replicate (its admission failed). */
export class RunRefusedError extends Error {
	readonly reason = 'run-refused';
}
