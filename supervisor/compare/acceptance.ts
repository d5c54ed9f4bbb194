import {z} from 'zod';
import type {AcceptancePolicy, EffectMargin} from '../plan/experiment-policy.js';
import type {Report} from '../attempt/report/report-schema.js';
import {significantImprovement} from './significant-improvement.js';
import {workingTimeOf} from './working-time.js';
import type {Insufficient} from './insufficient.js';
import {percent, resolveMargin} from './min-effect.js';

export const RuleCheck = z.object({
	rule: z.enum(['verification', 'timing', 'infrastructure', 'require_all_pass', 'improvement', 'max_duration_ratio', 'controller', 'leaks', 'metering']),
	satisfied: z.boolean(),
	message: z.string(),
});
export type RuleCheck = z.infer<typeof RuleCheck>;

export interface AcceptanceResult {
	accepted: boolean;
	/** Every rule that was checked, satisfied or not, in the order applied. */
	checks: RuleCheck[];
	duration_ratio: number | null;
	/** The improvement fell short of significance with the effect in the candidate's favour; null otherwise. */
	insufficient: Insufficient | null;
}

/** The wall times the duration rule compares, and where they come from (for the message). */
export interface WallTimes {
	baseline: number | null;
	candidate: number | null;
	source: string;
}

/**
 * Applies the frozen acceptance policy to two verified reports; unknown usage can never show an improvement.
 * Without `wall`, the duration rule uses the reports' own supervisor-measured totals.
 */
export function applyAcceptance(policy: AcceptancePolicy, baseline: Report, candidate: Report, wall?: WallTimes): AcceptanceResult {
	const checks: RuleCheck[] = [infrastructure(baseline, candidate)];
	if (policy.require_all_pass) checks.push(...allPass('baseline', baseline), ...allPass('candidate', candidate));
	const significant = policy.min_confidence === null ? null : significantImprovement(policy, policy.min_confidence, baseline, candidate);
	checks.push(significant === null
		? improvement(policy, baseline, candidate)
		: {rule: 'improvement', satisfied: significant.satisfied, message: significant.insufficient === null ? significant.message : `${significant.message}; ${significant.insufficient.message}`});
	const times = policy.duration === 'working'
		? {baseline: workingTimeOf(baseline), candidate: workingTimeOf(candidate), source: 'working time (wall time less provider waits)'}
		: wall ?? {baseline: baseline.totals.wall_ms, candidate: candidate.totals.wall_ms, source: 'task wall time'};
	const ratio = durationRatio(times.baseline, times.candidate);
	checks.push(ratio === null
		? {rule: 'max_duration_ratio', satisfied: false, message: `${times.source} is unknown on one side, so the duration limit cannot be shown to hold`}
		: {
			rule: 'max_duration_ratio',
			satisfied: ratio <= policy.max_duration_ratio,
			message: `candidate ${times.source} ${ms(times.candidate)} is ${ratio.toFixed(2)}x the baseline's ${ms(times.baseline)} (limit ${policy.max_duration_ratio}x)`,
		});
	return {accepted: checks.every(check => check.satisfied), checks, duration_ratio: ratio, insufficient: significant?.insufficient ?? null};
}

/** A provider that stayed unavailable says nothing about either harness: any such task on either side means rerun. */
function infrastructure(baseline: Report, candidate: Report): RuleCheck {
	const failedBy = (report: Report): string[] => report.tasks.filter(task => task.outcome?.infrastructure === true).map(task => task.task_id);
	const b = failedBy(baseline);
	const c = failedBy(candidate);
	if (b.length === 0 && c.length === 0) return {rule: 'infrastructure', satisfied: true, message: 'no infrastructure failures on either side'};
	const list = (side: string, ids: string[]): string => `${side} ${ids.length === 0 ? 'none' : ids.join(', ')}`;
	return {rule: 'infrastructure', satisfied: false, message: `infrastructure failures: rerun (the provider stayed unavailable: ${list('baseline', b)}; ${list('candidate', c)})`};
}

function allPass(side: 'baseline' | 'candidate', report: Report): RuleCheck[] {
	const failed = report.tasks.filter(task => task.status !== 'passed');
	if (failed.length === 0) return [{rule: 'require_all_pass', satisfied: true, message: `${side} passed all ${report.tasks.length} tasks`}];
	return failed.map(task => ({
		rule: 'require_all_pass' as const,
		satisfied: false,
		message: `${side} failed task ${task.task_id}${task.reason ? ` (${task.reason})` : ''}: ${task.message ?? 'the independent grader did not pass it'}`,
	}));
}

function improvement(policy: AcceptancePolicy, baseline: Report, candidate: Report): RuleCheck {
	const turns = fewer('turns', baseline.totals.turns, candidate.totals.turns, beyond(policy.min_effect?.turns, baseline, 'turns'));
	const tokens = fewer('total tokens', baseline.totals.total_tokens, candidate.totals.total_tokens, beyond(policy.min_effect?.tokens, baseline, 'total_tokens'));
	switch (policy.improvement) {
		case 'turns': return {rule: 'improvement', ...turns};
		case 'tokens': return {rule: 'improvement', ...tokens};
		case 'turns-or-tokens': return {
			rule: 'improvement',
			satisfied: turns.satisfied || tokens.satisfied,
			message: `${turns.message}; ${tokens.message}`,
		};
		case 'quality': return {rule: 'improvement', ...quality(baseline, candidate)};
		case 'non-regression': return {rule: 'improvement', ...nonRegression(baseline, candidate)};
	}
}

type Beyond = ((what: string, baseline: number, candidate: number) => {satisfied: boolean; message: string}) | null;

function fewer(what: string, baseline: number | null, candidate: number | null, margin: Beyond): {satisfied: boolean; message: string} {
	if (baseline === null || candidate === null) {
		return {satisfied: false, message: `${what}: unknown on ${baseline === null && candidate === null ? 'both sides' : baseline === null ? 'the baseline' : 'the candidate'}, which cannot show an improvement`};
	}
	if (margin !== null) return margin(what, baseline, candidate);
	return candidate < baseline
		? {satisfied: true, message: `${what}: ${candidate} < baseline ${baseline}`}
		: {satisfied: false, message: `${what}: ${candidate}, not fewer than baseline ${baseline}`};
}

/** With a `min_effect`, the saving per trial (totals over the denominator's entries) must exceed the margin. */
function beyond(margin: EffectMargin | undefined, report: Report, metric: 'turns' | 'total_tokens'): Beyond {
	if (margin === undefined) return null;
	const entries = report.tasks.length;
	return (what, baseline, candidate) => {
		const resolved = resolveMargin(margin, report, metric);
		const saved = (baseline - candidate) / entries;
		const observed = `${candidate} vs baseline ${baseline}, a saving of ${saved.toFixed(2)} per trial${baseline === 0 ? '' : ` (${percent((baseline - candidate) / baseline)})`}`;
		if (resolved === null) return {satisfied: false, message: `${what}: ${observed}; the baseline's mean is unknown, so the relative min_effect cannot be shown to be exceeded`};
		return saved > resolved.per_trial
			? {satisfied: true, message: `${what}: fewer beyond the margin: ${observed}, more than ${resolved.text}`}
			: {satisfied: false, message: `${what}: not fewer beyond the margin: ${observed}, not more than ${resolved.text}`};
	};
}

function quality(baseline: Report, candidate: Report): {satisfied: boolean; message: string} {
	if (candidate.totals.passed > baseline.totals.passed) {
		return {satisfied: true, message: `quality: ${candidate.totals.passed} tasks passed, baseline ${baseline.totals.passed}`};
	}
	if (candidate.totals.passed < baseline.totals.passed) {
		return {satisfied: false, message: `quality: ${candidate.totals.passed} tasks passed, fewer than baseline ${baseline.totals.passed}`};
	}
	const scoreOf = (report: Report): number | null => {
		let sum = 0;
		for (const task of report.tasks) {
			if (task.grade?.score == null) return null;
			sum += task.grade.score;
		}
		return sum;
	};
	const b = scoreOf(baseline);
	const c = scoreOf(candidate);
	if (b === null || c === null) return {satisfied: false, message: `quality: the same ${candidate.totals.passed} tasks passed and scores are not known for every task, so no improvement is shown`};
	return c > b
		? {satisfied: true, message: `quality: same pass count, total score ${c.toFixed(3)} > baseline ${b.toFixed(3)}`}
		: {satisfied: false, message: `quality: same pass count, total score ${c.toFixed(3)} not above baseline ${b.toFixed(3)}`};
}

function nonRegression(baseline: Report, candidate: Report): {satisfied: boolean; message: string} {
	const regressed = baseline.tasks
		.filter((task, index) => task.status === 'passed' && candidate.tasks[index]?.status !== 'passed')
		.map(task => task.task_id);
	return regressed.length === 0
		? {satisfied: true, message: 'non-regression: every task the baseline passed, the candidate passed too'}
		: {satisfied: false, message: `non-regression: the candidate fails ${regressed.join(', ')}, which the baseline passed`};
}

function durationRatio(b: number | null, c: number | null): number | null {
	if (b === null || c === null) return null;
	if (b === 0) return c === 0 ? 1 : Number.POSITIVE_INFINITY;
	return c / b;
}

function ms(value: number | null): string {
	return value === null ? 'unknown' : `${Math.round(value)} ms`;
}
