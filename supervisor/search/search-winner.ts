import {compareNodes} from './compare-nodes.js';
import type {Comparison, NodeView} from './search-record.js';

/** A node's mean over its replicates of one objective; null when one replicate's value is unknown or withheld. */
function meanOf(node: NodeView, objective: 'score' | 'turns'): number | null {
	const values = node.feedback.map(replicate => replicate[objective]);
	if (values.length === 0 || values.some(value => value === null)) return null;
	return (values as number[]).reduce((sum, value) => sum + value, 0) / values.length;
}

/** Higher mean score first (unknown last), then fewer mean turns (unknown last), then the earlier node. */
function better(a: NodeView, b: NodeView): number {
	const order = (x: number | null, y: number | null, sign: 1 | -1): number => (x === y ? 0 : x === null ? 1 : y === null ? -1 : sign * (y - x));
	return order(meanOf(a, 'score'), meanOf(b, 'score'), 1) || order(meanOf(a, 'turns'), meanOf(b, 'turns'), -1);
}

function describeMargin(comparison: Comparison): string {
	if (comparison.status === 'withheld-from-provider' || comparison.difference === null) return `${comparison.objective} unknown`;
	const sign = comparison.difference > 0 ? '+' : '';
	const error = comparison.standard_error === null ? 'standard error unknown' : `standard error ${comparison.standard_error.toFixed(3)}`;
	return `${comparison.objective} ${sign}${comparison.difference.toFixed(3)} (${error}, k ${comparison.k}: ${comparison.verdict ?? 'no verdict'})`;
}

/** The line a search ends with: the best evaluated node by mean score, then turns, and its margin over the runner-up. */
export function winnerLine(views: readonly NodeView[], k: number): string {
	const ranked = views.filter(view => view.status === 'evaluated').sort(better);
	const [winner, runnerUp] = ranked;
	if (winner === undefined) return 'winner: none (no node was evaluated)';
	const score = meanOf(winner, 'score');
	const turns = meanOf(winner, 'turns');
	const means = `mean score ${score === null ? 'unknown' : score.toFixed(3)}, mean turns ${turns === null ? 'unknown' : turns.toFixed(1)} over ${winner.feedback.length} replicate${winner.feedback.length === 1 ? '' : 's'}`;
	if (runnerUp === undefined) return `winner: ${winner.node_id} (${means}; the only node evaluated)`;
	const margins = (['score', 'turns'] as const).map(objective => describeMargin(compareNodes(winner, runnerUp, objective, k)));
	return `winner: ${winner.node_id} (${means}); margin over ${runnerUp.node_id}: ${margins.join(', ')}`;
}
