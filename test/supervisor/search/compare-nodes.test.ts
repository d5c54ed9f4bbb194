import t from 'tap';
import {compareNodes} from '../../../supervisor/search/compare-nodes.js';
import type {NodeView, ReplicateFeedback} from '../../../supervisor/search/search-record.js';

function node(id: string, scores: Array<number | null>, tasks = 4, turns: number[] = scores.map(() => 10)): NodeView {
	const feedback: ReplicateFeedback[] = scores.map((score, index) => ({seed: index + 1, tasks, score, turns: turns[index] ?? null, executions: []}));
	return {node_id: id, fingerprint: `sha256:${id}`, parent_ids: [], status: 'evaluated', feedback};
}

t.test('a verdict needs the difference to exceed k standard errors', async t => {
	const a = node('a', [0.75, 1, 0.75]);
	const b = node('b', [0.25, 0.5, 0.25]);
	const clear = compareNodes(a, b, 'score', 2);
	t.equal(clear.status, 'compared');
	t.equal(clear.difference, 0.5);
	t.ok(clear.standard_error! > 0);
	t.equal(clear.verdict, 'better');
	t.equal(compareNodes(b, a, 'score', 2).verdict, 'worse');
	const ratio = clear.difference! / clear.standard_error!;
	t.equal(compareNodes(a, b, 'score', ratio * 1.001).verdict, 'no-difference', 'k just above the difference in standard errors');
	t.equal(compareNodes(a, b, 'score', ratio * 0.999).verdict, 'better', 'k just below it');
	t.equal(compareNodes(node('c', [0.5, 0.75, 0.25]), node('d', [0.5, 0.25, 0.5]), 'score', 2).verdict, 'no-difference', 'noise is no difference');
});

t.test('fewer turns is better; one replicate has no standard error and so no difference', async t => {
	t.equal(compareNodes(node('a', [1, 1], 4, [8, 9]), node('b', [1, 1], 4, [12, 13]), 'turns', 2).verdict, 'better');
	const single = compareNodes(node('a', [1]), node('b', [0]), 'score', 2);
	t.equal(single.standard_error, null);
	t.equal(single.verdict, 'no-difference');
});

t.test('a score of a one-task suite is withheld from the provider: no number, no verdict', async t => {
	const withheld = compareNodes(node('a', [null, null], 1), node('b', [null, null], 1), 'score', 2);
	t.same(withheld, {a: 'a', b: 'b', objective: 'score', k: 2, status: 'withheld-from-provider', difference: null, standard_error: null, verdict: null});
	t.equal(compareNodes(node('a', [null, null], 1, [3, 4]), node('b', [null, null], 1, [5, 6]), 'turns', 2).status, 'compared', 'execution measurements may still be compared');
});
