import t from 'tap';
import {denominatorOf, entryTaskId, resolveSelection, taskById} from '../../../supervisor/plan/task-selection.js';

t.test('without repeats the denominator is the task ids themselves', async t => {
	t.same(denominatorOf(resolveSelection('sales_report,answer_from_prompt'), 1), ['sales_report', 'answer_from_prompt']);
});

t.test('repeats are numbered from 1 and go round by round', async t => {
	t.same(denominatorOf([{id: 'a'}, {id: 'b'}], 2), ['a#1', 'b#1', 'a#2', 'b#2']);
});

t.test('an entry names its task with or without the trial suffix', async t => {
	t.equal(entryTaskId('sales_report#12'), 'sales_report');
	t.equal(entryTaskId('sales_report'), 'sales_report');
	t.equal(entryTaskId('sales_report#0'), 'sales_report#0', 'trials start at 1');
	t.equal(taskById('answer_from_prompt#3')?.id, 'answer_from_prompt');
	t.equal(taskById('no_such_task#1'), null);
});
