import {z} from 'zod';
import type {Report, TaskResult} from '../attempt/report/report-schema.js';
import {exactSignTest} from '../statistics/sign-test.js';
import {taskSignFlipTest} from '../statistics/task-sign-flip.js';
import {clustersOf} from '../statistics/clusters.js';
import {clusterBootstrap, clusterBootstrapPValue} from '../statistics/cluster-bootstrap.js';
import {clusterRobustSE} from '../statistics/cluster-robust-se.js';
import {varianceDecomposition} from '../statistics/variance-decomposition.js';

export {exactSignTest};

/** One task over its trials (`<id>#k` entries share the task `<id>`): how often each side passed it. */
export const TaskPassRate = z.object({
	task: z.string(),
	trials: z.number().int().nonnegative(),
	baseline_passed: z.number().int().nonnegative(),
	candidate_passed: z.number().int().nonnegative(),
	baseline_rate: z.number().min(0).max(1).nullable(),
	candidate_rate: z.number().min(0).max(1).nullable(),
});
export type TaskPassRate = z.infer<typeof TaskPassRate>;

/**
 * The exact two-sided sign test (McNemar's exact test) on the pairs where exactly one side passed; with repeats, the
 * exact sign-flip test over tasks (a task's repeats are correlated: its discordant pairs flip together).
 */
export const SignTest = z.object({
	pairs: z.number().int().nonnegative(),
	candidate_only: z.number().int().nonnegative(),
	baseline_only: z.number().int().nonnegative(),
	/** 1 when no pair is discordant: nothing tells the sides apart. */
	p_value: z.number().min(0).max(1),
	significant: z.boolean(),
	/** The side that passed more of the discordant pairs; null on a tie. */
	favours: z.enum(['baseline', 'candidate']).nullable(),
	/** Whether the p-value is the sign-flip test over tasks (repeats) or the sign test over pairs; null in decisions written before it was. */
	clustered: z.boolean().nullable().default(null),
});
export type SignTest = z.infer<typeof SignTest>;

export const PairedMetric = z.enum(['turns', 'total_tokens', 'wall_ms']);
export type PairedMetric = z.infer<typeof PairedMetric>;

/**
 * A seeded percentile bootstrap of the mean paired difference (candidate minus baseline); pairs with an unknown side
 * are left out. With repeats it resamples tasks, not entries, widened for few tasks; with one trial per task it is
 * the entry bootstrap it always was. The fields after `high` are null in decisions written before they were.
 */
export const PairedInterval = z.object({
	metric: PairedMetric,
	pairs: z.number().int().nonnegative(),
	left_out: z.number().int().nonnegative(),
	mean_difference: z.number().nullable(),
	low: z.number().nullable(),
	high: z.number().nullable(),
	/** The tasks the pairs came from, and whether the bootstrap resampled them (repeats) or the entries (one trial each). */
	tasks: z.number().int().nonnegative().nullable().default(null),
	clustered: z.boolean().nullable().default(null),
	/** The cluster-robust (CR1) standard error of the mean difference; null with fewer than two tasks. */
	cluster_se: z.number().nonnegative().nullable().default(null),
	/** The differences' variance between tasks and between repeats of one task; null where not estimable. */
	between_task: z.number().nonnegative().nullable().default(null),
	within_task: z.number().nonnegative().nullable().default(null),
	/** The two-sided bootstrap p-value of no difference, matching the interval (at most 1 − confidence exactly when it excludes zero). */
	p_value: z.number().min(0).max(1).nullable().default(null),
	/** The rule's `min_effect` per trial for this statistic, and the p-value of a mean difference of minus it (the same resamples); null without one. */
	margin: z.number().nonnegative().nullable().default(null),
	margin_p_value: z.number().min(0).max(1).nullable().default(null),
});
export type PairedInterval = z.infer<typeof PairedInterval>;

export const PairedStatistics = z.object({
	confidence: z.number().gt(0).lt(1),
	seed: z.number().int(),
	resamples: z.number().int().positive(),
	tasks: z.array(TaskPassRate),
	pass_fail: SignTest,
	differences: z.array(PairedInterval),
});
export type PairedStatistics = z.infer<typeof PairedStatistics>;

export interface StatisticsOptions {
	confidence?: number;
	seed?: number;
	resamples?: number;
	/** Per statistic, the saving per trial an improvement must exceed (the rule's resolved `min_effect`). */
	margins?: Partial<Record<PairedMetric, number>>;
}

interface Pair {
	task: string;
	baseline: TaskResult;
	candidate: TaskResult;
}

/** Paired statistics over the shared ordered denominator (tasks × trials): entry i of one side is paired with entry i of the other. */
export function pairedStatistics(baseline: Report, candidate: Report, options: StatisticsOptions = {}): PairedStatistics {
	const {confidence = 0.95, seed = 1, resamples = 10_000, margins = {}} = options;
	const pairs = pairEntries(baseline, candidate);
	return PairedStatistics.parse({
		confidence, seed, resamples,
		tasks: passRates(pairs),
		pass_fail: signTest(pairs, confidence),
		differences: PairedMetric.options.map(metric => bootstrapInterval(metric, pairs, {confidence, seed, resamples, margins})),
	});
}

/** `<id>#k` is trial k of task `<id>`. */
export function taskOf(entry: string): string {
	const mark = entry.lastIndexOf('#');
	return mark === -1 ? entry : entry.slice(0, mark);
}

function pairEntries(baseline: Report, candidate: Report): Pair[] {
	const count = Math.min(baseline.tasks.length, candidate.tasks.length);
	const pairs: Pair[] = [];
	for (let index = 0; index < count; index += 1) {
		const b = baseline.tasks[index]!;
		const c = candidate.tasks[index]!;
		// A pair is only a pair when both sides ran the same entry; verification reports the mismatch itself.
		if (b.task_id === c.task_id) pairs.push({task: taskOf(b.task_id), baseline: b, candidate: c});
	}
	return pairs;
}

function passRates(pairs: Pair[]): TaskPassRate[] {
	const byTask = new Map<string, TaskPassRate>();
	for (const pair of pairs) {
		const row = byTask.get(pair.task) ?? {task: pair.task, trials: 0, baseline_passed: 0, candidate_passed: 0, baseline_rate: null, candidate_rate: null};
		row.trials += 1;
		if (pair.baseline.status === 'passed') row.baseline_passed += 1;
		if (pair.candidate.status === 'passed') row.candidate_passed += 1;
		row.baseline_rate = row.baseline_passed / row.trials;
		row.candidate_rate = row.candidate_passed / row.trials;
		byTask.set(pair.task, row);
	}
	return [...byTask.values()];
}

function signTest(pairs: Pair[], confidence: number): SignTest {
	const net = new Map<string, number>();
	let candidateOnly = 0;
	let baselineOnly = 0;
	for (const pair of pairs) {
		const c = pair.candidate.status === 'passed';
		const b = pair.baseline.status === 'passed';
		const step = c && !b ? 1 : b && !c ? -1 : 0;
		if (step === 1) candidateOnly += 1;
		if (step === -1) baselineOnly += 1;
		net.set(pair.task, (net.get(pair.task) ?? 0) + step);
	}
	// One pair per task: the sign test as it always was (the sign-flip test gives the same p-value there).
	const clustered = pairs.length > net.size;
	const p = clustered ? taskSignFlipTest([...net.values()]) : exactSignTest(candidateOnly, baselineOnly);
	return {
		pairs: pairs.length,
		candidate_only: candidateOnly,
		baseline_only: baselineOnly,
		p_value: p,
		significant: p <= 1 - confidence,
		favours: candidateOnly === baselineOnly ? null : candidateOnly > baselineOnly ? 'candidate' : 'baseline',
		clustered,
	};
}

/** Per task, in first-seen order, the paired differences (candidate minus baseline) of one statistic; unknown sides left out. */
export const TaskDifferencesSchema = z.object({task: z.string(), differences: z.array(z.number())});
export type TaskDifferences = z.infer<typeof TaskDifferencesSchema>;

/** The paired differences the intervals resample, per task, for a page's chart. */
export function taskDifferences(baseline: Report, candidate: Report, metric: PairedMetric): TaskDifferences[] {
	return [...differencesByTask(metric, pairEntries(baseline, candidate)).entries()].map(([task, differences]) => ({task, differences}));
}

function differencesByTask(metric: PairedMetric, pairs: Pair[]): Map<string, number[]> {
	const byTask = new Map<string, number[]>();
	for (const pair of pairs) {
		const b = metricOf(metric, pair.baseline);
		const c = metricOf(metric, pair.candidate);
		if (b === null || c === null) continue;
		byTask.set(pair.task, [...byTask.get(pair.task) ?? [], c - b]);
	}
	return byTask;
}

function bootstrapInterval(metric: PairedMetric, pairs: Pair[], options: Required<StatisticsOptions>): PairedInterval {
	const byTask = differencesByTask(metric, pairs);
	const known = [...byTask.values()].reduce((sum, group) => sum + group.length, 0);
	const base = {metric, pairs: known, left_out: pairs.length - known, tasks: byTask.size};
	const margin = options.margins[metric] ?? null;
	if (known === 0) return {...base, mean_difference: null, low: null, high: null, clustered: null, cluster_se: null, between_task: null, within_task: null, p_value: null, margin, margin_p_value: null};
	const clusters = clustersOf([...byTask.values()]);
	const clustered = known > byTask.size;
	const interval = clusterBootstrap(clusters, options.confidence, options.seed, options.resamples, clustered);
	const spread = varianceDecomposition(clusters);
	const p = clusterBootstrapPValue(clusters, options.seed, options.resamples, clustered);
	const beyond = margin === null ? null : clusterBootstrapPValue(clusters, options.seed, options.resamples, clustered, -margin);
	return {...base, mean_difference: mean(clusters.values), ...interval, clustered, cluster_se: clusterRobustSE(clusters), ...spread, p_value: p, margin, margin_p_value: beyond};
}

/** Unknown usage is null and stays out of the pairs; a task that never ran has no wall time. */
function metricOf(metric: PairedMetric, task: TaskResult): number | null {
	if (metric === 'wall_ms') return task.wall_ms;
	return task.usage?.[metric] ?? null;
}

function mean(values: Float64Array): number {
	return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** How the pass/fail p-value was found, as messages name it. */
export function signTestName(test: SignTest): string {
	return test.clustered === true ? 'exact sign-flip test over tasks' : 'exact sign test';
}
