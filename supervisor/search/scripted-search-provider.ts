import type {SearchProvider} from './providers.js';
import type {Choice, NodeView, SearchContext} from './search-record.js';

/** The mean of the known scores of a node's replicates, or null when none is known. */
function meanScore(node: NodeView): number | null {
	const scores = node.feedback.map(replicate => replicate.score).filter(score => score !== null);
	return scores.length === 0 ? null : scores.reduce((sum, score) => sum + score, 0) / scores.length;
}

/**
 * The deterministic search provider: best first. It takes the evaluated node with the highest mean score that
 * is not exhausted, the newest on a tie (or, with scores withheld, the newest).
 */
export function scriptedSearchProvider(): SearchProvider {
	return {
		binding: {kind: 'scripted-best-first', version: 1, config: {}},
		callsModel: false,
		async select(context: SearchContext): Promise<Choice> {
			const open = context.nodes.filter(node => node.status === 'evaluated' && !context.exhausted.includes(node.node_id));
			if (open.length === 0) return {kind: 'none', reason: 'no evaluated node is left that is not exhausted'};
			const ranked = open.map((node, order) => ({node, order, score: meanScore(node) ?? -1})).sort((a, b) => b.score - a.score || b.order - a.order);
			const best = ranked[0]!;
			return {kind: 'base', node_id: best.node.node_id, rationale: best.score < 0 ? `${best.node.node_id} is the newest evaluated node` : `${best.node.node_id} has the best mean score (${best.score.toFixed(3)})`};
		},
	};
}
