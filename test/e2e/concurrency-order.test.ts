import {join} from 'node:path';
import {readFile} from 'node:fs/promises';
import t from 'tap';
import {builtinTasks} from '../../tasks/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {attempt, freeze, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

t.test('concurrency 8 gives the same report order as concurrency 1', async t => {
	const dir = await scratch(t);
	// The slow polling task goes first, so at concurrency 8 the quick ones finish before it.
	const ids = ['background_job_poll', 'sales_report', 'json_config_migration', 'implement_function'];
	t.ok(ids.every(id => builtinTasks.some(task => task.id === id)));
	const serial = await attempt(await freeze({dir, tasks: ids.join(','), policy: {concurrency: 1}, name: 'serial'}), join(dir, 'serial'));
	const parallel = await attempt(await freeze({dir, tasks: ids.join(','), policy: {concurrency: 8}, name: 'parallel'}), join(dir, 'parallel'));
	t.same(serial.report.tasks.map(task => task.task_id), ids);
	t.same(parallel.report.tasks.map(task => task.task_id), ids);
	t.same(parallel.report.tasks.map(task => task.index), ids.map((_, index) => index));
	const ledger = (await readFile(join(parallel.dir, 'ledger.jsonl'), 'utf8')).trim().split('\n');
	t.equal(ledger.length, ids.length, 'one ledger record per task');
	const completion = ledger.map(line => (JSON.parse(line) as {result: {task_id: string}}).result.task_id);
	t.same([...completion].sort(), [...ids].sort(), 'the ledger holds every task once');
	t.not(completion[0], ids[0], `the ledger shows tasks finished out of frozen order (${completion.join(', ')}), yet the report keeps it`);
});
