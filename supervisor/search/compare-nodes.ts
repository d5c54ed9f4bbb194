import type {Comparison, NodeView, Objective} from './search-record.js';

/** Higher is better for the score, lower for turns. */
const direction: Record<Objective, 1 | -1> = {score: 1, turns: -1};

/** The values of one objective across a node's replicates, or null when one of them is unknown or withheld. */
function valuesOf(node: NodeView, objective: Objective): number[] | null {
	const values = node.feedback.map(replicate => replicate[objective]);
	return values.some(value => value === null) ? null : values as number[];
}

const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The sample variance; null below two values, where it is unknown. */
function variance(values: number[]): number | null {
	if (values.length < 2) return null;
	const center = mean(values);
	return values.reduce((sum, value) => sum + (value - center) ** 2, 0) / (values.length - 1);
}

/**
 * Node `a` against node `b` on one objective, from provider-visible values only. A score that is withheld (a
 * one-task suite) makes the comparison withheld too: no number, no verdict. A verdict needs the difference to
 * exceed k standard errors across replicates; otherwise there is no difference.
 */
export function compareNodes(a: NodeView, b: NodeView, objective: Objective, k: number): Comparison {
	const base = {a: a.node_id, b: b.node_id, objective, k};
	const withheld = [a, b].some(node => node.feedback.some(replicate => replicate.tasks < 2)) && objective === 'score';
	if (withheld) return {...base, status: 'withheld-from-provider', difference: null, standard_error: null, verdict: null};
	const [x, y] = [valuesOf(a, objective), valuesOf(b, objective)];
	if (x === null || y === null || x.length === 0 || y.length === 0) return {...base, status: 'compared', difference: null, standard_error: null, verdict: null};
	const difference = mean(x) - mean(y);
	const [vx, vy] = [variance(x), variance(y)];
	const standard_error = vx === null || vy === null ? null : Math.sqrt(vx / x.length + vy / y.length);
	const decided = standard_error !== null && Math.abs(difference) > k * standard_error;
	const verdict = !decided ? 'no-difference' : difference * direction[objective] > 0 ? 'better' : 'worse';
	return {...base, status: 'compared', difference, standard_error, verdict};
}

/** A newly evaluated node against every node evaluated before it, on score then turns: what a round records and replay recomputes. */
export function compareWithEarlier(mine: NodeView, earlier: readonly NodeView[], k: number): Comparison[] {
	return earlier.flatMap(other => [compareNodes(mine, other, 'score', k), compareNodes(mine, other, 'turns', k)]);
}
