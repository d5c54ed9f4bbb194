import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {builtinTasks} from '../../tasks/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {attempt, freeze, repeatedObservation, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

const two = builtinTasks.slice(0, 2).map(task => task.id);

t.test('a plan edited after freezing is refused at admission and the whole denominator fails', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: two.join(',')});
	const json = JSON.parse(await readFile(plan, 'utf8'));
	json.budgets.max_steps = 50;
	await writeFile(plan, JSON.stringify(json, null, 2));
	const {report} = await attempt(plan, join(dir, 'attempt'));
	t.equal(report.admission.admitted, false);
	t.match(report.admission.differences.join('\n'), /plan digest: recorded .* \(the plan was edited after freezing\)/);
	t.same(report.tasks.map(task => [task.task_id, task.status, task.reason]), two.map(id => [id, 'failed', 'admission']));
	const ledger = (await readFile(join(dir, 'attempt', 'ledger.jsonl'), 'utf8')).trim().split('\n');
	t.equal(ledger.length, two.length, 'every task of the denominator is recorded in the ledger');
});

t.test('a changed composition is refused at admission, naming the configuration and the modules', async t => {
	const dir = await scratch(t);
	const project = join(dir, 'project');
	await mkdir(project);
	await writeFile(join(project, 'harness-lab.config.json'), JSON.stringify({composition: {modules: ['engine.loop', 'engine.tools', 'candidate']}}));
	const plan = await freeze({dir, tasks: two.join(','), cwd: project});
	await writeFile(join(project, 'harness-lab.config.json'), JSON.stringify({composition: {modules: ['engine.loop', 'engine.tools']}}));
	const {report} = await attempt(plan, join(dir, 'attempt'), null, project);
	t.equal(report.admission.admitted, false);
	const text = report.admission.differences.join('\n');
	t.match(text, /configuration: digest/);
	t.match(text, /composition: modules were \[engine\.loop, engine\.tools, candidate\], now \[engine\.loop, engine\.tools\]/);
	t.ok(report.tasks.every(task => task.reason === 'admission'));
});

t.test('a composition without the candidate slot fails the loaded-module check, with no fallback', async t => {
	const dir = await scratch(t);
	await writeFile(join(dir, 'harness-lab.config.json'), JSON.stringify({composition: {modules: ['engine.loop', 'engine.tools']}}));
	const plan = await freeze({dir, tasks: two[0]!});
	const {report} = await attempt(plan, join(dir, 'attempt'), repeatedObservation, dir);
	t.equal(report.admission.admitted, true);
	t.equal(report.tasks[0]?.reason, 'init');
	t.match(report.tasks[0]?.message, /loaded-module check failed: the composition \[engine\.loop, engine\.tools\] has no candidate slot/);
});
