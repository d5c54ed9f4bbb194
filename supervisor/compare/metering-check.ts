import type {Report} from '../attempt/report/report-schema.js';
import type {RuleCheck} from './acceptance.js';

/** A side's claim-versus-metering differences, in words; null when the side has no host metering. */
function differencesOf(label: string, report: Report | null): {count: number; text: string} | null {
	const measure = report?.host_measure ?? null;
	if (measure === null) return null;
	const rows = measure.usage_differences;
	const shown = rows.slice(0, 3).map(row => `${row.task_id}: claimed ${row.claimed.turns ?? '?'} turns/${row.claimed.total_tokens ?? '?'} tokens, metered ${row.metered.turns ?? '?'}/${row.metered.total_tokens ?? '?'}`);
	return {count: rows.length, text: rows.length === 0 ? `${label}'s claims match the metering` : `${label}'s binary misreported its usage on ${rows.length} task${rows.length === 1 ? '' : 's'} (${shown.join('; ')}${rows.length > 3 ? '; ...' : ''})`};
}

/**
 * Supervised hosts' usage is the supervisor's count at the provider boundary; the binaries' own reports are claims.
 * A candidate whose claims differ from the metering is named and cannot be accepted; a baseline's difference is named.
 * No line when neither side was metered.
 */
export function meteringCheck(baseline: Report | null, candidate: Report | null): RuleCheck | null {
	const b = differencesOf('the baseline', baseline);
	const c = differencesOf('the candidate', candidate);
	if (b === null && c === null) return null;
	const message = `usage is metered by the supervisor at the provider boundary; ${[b?.text ?? 'the baseline was not metered', c?.text ?? 'the candidate was not metered'].join('; ')}`;
	return {rule: 'metering', satisfied: (c?.count ?? 0) === 0, message};
}
