import {join} from 'node:path';
import {readFile} from 'node:fs/promises';
import t from 'tap';
import {builtinTasks} from '../../tasks/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {attempt, freeze, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

t.test('concurrency 8 gives the same report order as concurrency 1', async t => {
	const dir = await scratch(t);
	const ids = builtinTasks.map(task => task.id);
	const serial = await attempt(await freeze({dir, tasks: 'all', policy: {concurrency: 1}, name: 'serial'}), join(dir, 'serial'));
	const parallel = await attempt(await freeze({dir, tasks: 'all', policy: {concurrency: 8}, name: 'parallel'}), join(dir, 'parallel'));
	t.same(serial.report.tasks.map(task => task.task_id), ids);
	t.same(parallel.report.tasks.map(task => task.task_id), ids);
	t.same(parallel.report.tasks.map(task => task.index), ids.map((_, index) => index));
	const ledger = (await readFile(join(parallel.dir, 'ledger.jsonl'), 'utf8')).trim().split('\n');
	t.equal(ledger.length, ids.length, 'one ledger record per task');
});
