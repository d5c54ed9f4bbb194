import {checkSummary, itemLine} from '../check-summary.js';
import type {PairRecoveryCheckResult} from './result-schema.js';

/** The text `hlab check pair-recovery` prints: per scenario, how the pair ended and what each side recorded. */
export function pairRecoveryCheckSummary(result: PairRecoveryCheckResult, output: string): string {
	return checkSummary('pair-recovery', output, result.passed, result.scenarios.map(scenario => {
		const tasks = Object.entries(scenario.tasks).map(([side, count]) => `${side} ${count.passed}/${scenario.denominator} recorded`).join(', ');
		return itemLine(scenario, 18, `${String(scenario.pair_status).padEnd(11)} ${tasks}`);
	}));
}
