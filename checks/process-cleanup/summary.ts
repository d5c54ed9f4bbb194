import {checkSummary, itemLine} from '../check-summary.js';
import type {CleanupCheckResult} from './result-schema.js';

/** The text `hlab check process-cleanup` prints: the backend, then per scenario what had to be killed and how. */
export function cleanupCheckSummary(result: CleanupCheckResult, output: string): string {
	return checkSummary('process-cleanup', output, result.passed, [`containment backend: ${result.containment}`, ...result.scenarios.map(scenario => itemLine(scenario, 34,
		scenario.killed.length === 0 ? 'nothing to kill' : `killed ${scenario.killed.map(entry => `${entry.pid}:${entry.how}`).join(' ')}`))]);
}
