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

/** A proposal failed verification where it was acted on (it was changed after the planner verified it). */
export class ProposalRefusedError extends Error {
	readonly reason = 'proposal-refused';
	constructor(readonly reasons: string[]) {
		super(`the proposal does not verify where it is acted on: ${reasons.join('; ')}`);
	}
}
