import t from 'tap';
import {BudgetGate} from '../../../../supervisor/attempt/stages/total-budget.js';
import {failedResult} from '../../../../supervisor/attempt/task-core/failed-result.js';
import type {TaskResult} from '../../../../supervisor/attempt/report/report-schema.js';

function used(index: number, tokens: number | null): TaskResult {
	const usage = {turns: 1, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: tokens, cost_usd: null};
	return {...failedResult(index, `t${index}`, {reason: 'grader', message: 'failed'}), usage};
}

t.test('a token budget stops launches once the finished tasks used it, and says how much', async t => {
	const gate = new BudgetGate({max_total_tasks: null, max_total_tokens: 100});
	t.equal(gate.launch(), null);
	gate.finished(used(0, 60));
	t.equal(gate.launch(), null, '60 of 100: the next task may launch');
	gate.finished(used(1, 50));
	t.same(gate.launch(), {reason: 'budget', message: 'not launched: the attempt\'s total budget is spent (110 of at most 100 tokens used)'});
});

t.test('with a task\'s tokens unknown, the count is a lower bound and the refusal says so; a task that never ran counts as none', async t => {
	const gate = new BudgetGate({max_total_tasks: null, max_total_tokens: 100});
	gate.launch();
	gate.finished(used(0, null));
	gate.launch();
	gate.finished(failedResult(1, 't1', {reason: 'init', message: 'not prepared'}));
	gate.launch();
	gate.finished(used(2, 120));
	t.same(gate.launch(), {reason: 'budget', message: 'not launched: the attempt\'s total budget is spent (at least 120 of at most 100 tokens used; the tokens of 1 finished task are unknown)'});
});
