import type {Report} from '../attempt/report/report-schema.js';
import type {RuleCheck} from './acceptance.js';

/** How many processes outlived their task or the attempt on one side; null when the side was never audited. */
function leakCount(report: Report | null): number | null {
	return report?.leak_audit?.leaked.length ?? null;
}

/**
 * A candidate that left processes running where the baseline left none is named, and rejected: the processes it
 * leaves are part of what it does. Without a leak on the candidate's side there is no line at all.
 */
export function leakCheck(baseline: Report | null, candidate: Report | null): RuleCheck | null {
	const leaked = leakCount(candidate);
	if (leaked === null || leaked === 0) return null;
	const named = candidate!.leak_audit!.leaked.slice(0, 3).map(leak => `${leak.pid} (${(leak.argv ?? [leak.comm ?? '?']).join(' ')})`).join(', ');
	const processes = `${leaked} process${leaked === 1 ? '' : 'es'} outlived their task and were ended by the ${candidate!.leak_audit!.backend} backend: ${named}${leaked > 3 ? ', ...' : ''}`;
	const before = leakCount(baseline);
	if (before !== null && before > 0) return {rule: 'leaks', satisfied: true, message: `the baseline leaked too (${before}); candidate: ${processes}`};
	return {rule: 'leaks', satisfied: false, message: `the candidate leaked where the baseline ${before === null ? 'was not audited' : 'did not'}: ${processes}`};
}
