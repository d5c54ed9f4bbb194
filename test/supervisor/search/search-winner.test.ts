import t from 'tap';
import {winnerLine} from '../../../supervisor/search/search-winner.js';
import type {NodeView} from '../../../supervisor/search/search-record.js';

const node = (id: string, replicates: Array<[number | null, number | null]>, status: NodeView['status'] = 'evaluated'): NodeView => ({
	node_id: id, fingerprint: `sha256:${id}`, parent_ids: [], status,
	feedback: replicates.map(([score, turns], seed) => ({seed, tasks: 2, score, turns, executions: []})),
});

t.test('the winner has the best mean score, then the fewest mean turns; its margin is over the runner-up', async t => {
	const views = [node('node-000', [[0.5, 20], [0.5, 22]]), node('node-001', [[1, 30], [1, 28]]), node('node-002', [[1, 18], [1, 16]]), node('node-003', [], 'failed')];
	t.equal(winnerLine(views, 2), 'winner: node-002 (mean score 1.000, mean turns 17.0 over 2 replicates); margin over node-001: score 0.000 (standard error 0.000, k 2: no-difference), turns -12.000 (standard error 1.414, k 2: better)');
});

t.test('one evaluated node, or none, is said as such', async t => {
	t.equal(winnerLine([node('node-000', [[0.5, 20]])], 2), 'winner: node-000 (mean score 0.500, mean turns 20.0 over 1 replicate; the only node evaluated)');
	t.equal(winnerLine([node('node-000', [], 'failed')], 2), 'winner: none (no node was evaluated)');
});

t.test('a node whose score is unknown ranks after those with one', async t => {
	t.match(winnerLine([node('node-000', [[null, 5]]), node('node-001', [[0.2, 50]])], 2), /^winner: node-001 .*margin over node-000: score unknown/);
});
