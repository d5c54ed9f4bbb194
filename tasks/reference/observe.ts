import {parseCommandObservation, type CommandObservation} from './observations.js';

/** The command observation, or a stand-in that fails every check when the text is not one. */
export function commandResult(observation: string): CommandObservation {
	return parseCommandObservation(observation) ?? {exitCode: null, timedOut: false, stdout: '', stderr: observation};
}

export function commandSucceeded(observation: string): boolean {
	return commandResult(observation).exitCode === 0;
}

/** A tool result that reports a refusal or failure of the tool itself. */
export function isToolError(observation: string): boolean {
	return observation.startsWith('error: ');
}

/** The command line every test-based task tells the agent to use. */
export const testCommand = 'node --test --test-reporter=dot';
