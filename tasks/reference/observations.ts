/** A `run_command` observation, parsed back: what reference behaviours react to. */
export interface CommandObservation {
	exitCode: number | null;
	timedOut: boolean;
	stdout: string;
	stderr: string;
}

/** Parses the text `run_command` returns (see engine/tools/run-command.ts `describeRun`); null when it is not one. */
export function parseCommandObservation(text: string): CommandObservation | null {
	const match = /^(?:(timed out)[^\n]*\n)?(?:[^\n]*exceeded[^\n]*\n)?(?:exit_code: (\d+)|signal: \S+)\n--- stdout ---\n([\s\S]*)\n--- stderr ---\n([\s\S]*)$/.exec(text);
	if (!match) return null;
	return {exitCode: match[2] === undefined ? null : Number(match[2]), timedOut: match[1] !== undefined, stdout: match[3]!, stderr: match[4]!};
}
