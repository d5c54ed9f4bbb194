import t from 'tap';
import {taskDirName} from '../../../supervisor/evidence/evidence-dir.js';

t.test('task folders are numbered from 1 with at least three digits', async t => {
	t.equal(taskDirName(0, 'sales_report', 6), 'tasks/001-sales_report');
	t.equal(taskDirName(998, 'x#999', 999), 'tasks/999-x#999');
});

t.test('a denominator of 1,000 or more gets wider numbers, so a listing keeps the frozen order', async t => {
	const names = Array.from({length: 1200}, (_, index) => taskDirName(index, 'answer_from_prompt', 1200));
	t.equal(names[0], 'tasks/0001-answer_from_prompt');
	t.same([...names].sort(), names);
});
