import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {ProcessRecord} from '../../process/index.js';
import {isRunning, readStat} from '../../process/proc-table.js';
import {checkNoLeaks} from '../leak-check.js';
import {attempt, freeze, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

t.test('--repeat runs each task n times, round by round, each trial graded and recorded on its own', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt,json_config_migration', repeat: 3, policy: {concurrency: 4}});
	const frozen = JSON.parse(await readFile(plan, 'utf8')) as {task_ids: string[]; tasks: Array<{id: string}>; repeat: number};
	const entries = ['answer_from_prompt#1', 'json_config_migration#1', 'answer_from_prompt#2', 'json_config_migration#2', 'answer_from_prompt#3', 'json_config_migration#3'];
	t.same(frozen.task_ids, entries);
	t.same(frozen.tasks.map(task => task.id), ['answer_from_prompt', 'json_config_migration'], 'each task is described once');
	t.equal(frozen.repeat, 3);

	const {dir: evidence, report} = await attempt(plan, join(dir, 'attempt'));
	t.equal(report.admission.admitted, true, report.admission.differences.join('; '));
	t.same(report.tasks.map(task => [task.task_id, task.status]), entries.map(id => [id, 'passed']));
	t.equal(report.totals.turns, 3 * 1 + 3 * 7, 'the one-turn task takes one turn per trial');
	const ledger = (await readFile(join(evidence, 'ledger.jsonl'), 'utf8')).trim().split('\n');
	t.equal(ledger.length, entries.length, 'one ledger record per trial');
	t.ok(report.tasks.every(task => task.evidence.result?.startsWith(`tasks/${String(task.index + 1).padStart(3, '0')}-${task.task_id}/`)), 'each trial has its own evidence folder');

	// The scripted provider ran as a supervised process of its own, and it is gone.
	const service = ProcessRecord.parse(JSON.parse(await readFile(join(evidence, 'services/scripted-provider/process.json'), 'utf8')));
	t.equal(service.failure, 'aborted', 'it was ended by the supervisor at the end of the attempt');
	t.same(service.survivors, []);
	t.notOk(isRunning(readStat(service.pid!)), 'its leader no longer runs');
});

t.test('a plan whose repeat was edited is refused at admission', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt', repeat: 2});
	const json = JSON.parse(await readFile(plan, 'utf8')) as {repeat: number};
	json.repeat = 3;
	await writeFile(plan, JSON.stringify(json, null, 2));
	const {report} = await attempt(plan, join(dir, 'attempt'));
	t.equal(report.admission.admitted, false);
	t.match(report.admission.differences.join('\n'), /the task list and the ordered task ids disagree/);
	t.same(report.tasks.map(task => task.reason), ['admission', 'admission']);
});
