import {existsSync} from 'node:fs';
import {UsageError} from '../supervisor/input-error.js';
import {failedExit, okExit} from './exit-codes.js';

/** Prints a self-check's result.json (`--json`) or its summary, and sets the exit status from the verdict. */
export function reportCheck(result: {passed: boolean}, json: boolean | undefined, summary: string): void {
	process.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : summary);
	process.exitCode = result.passed ? okExit : failedExit;
}

/** A self-check writes into a new directory only. */
export function requireNewOutput(output: string): void {
	if (existsSync(output)) throw new UsageError(`output directory ${output} already exists; choose a new one`, 'output_exists');
}
