import {checkSummary, itemLine} from '../check-summary.js';
import type {ControllerCheckResult} from './result-schema.js';

/** The text `hlab check controller` prints: one line per step. */
export function controllerCheckSummary(result: ControllerCheckResult, output: string): string {
	return checkSummary('controller', output, result.passed, result.steps.map(step => itemLine(step, 20, step.description)));
}
