import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {scratch} from './experiment-fixture.js';

checkNoLeaks(t);

const command = (line: string) => ({tool_calls: [{type: 'function', function: {name: 'run_command', arguments: {command: line}}}]});
const done = {tool_calls: [{type: 'function', function: {name: 'done', arguments: {summary: 'done'}}}]};

/** A model that does no work: it links the grader's expected file, or makes the tested module exit before any test. */
const forgery = {
	schema: 'harness-lab/response-script@1',
	tasks: {
		json_config_migration: [command(`ln -s ${join(installRoot, 'tasks/json_config_migration/expected/config/service.v2.json')} config/service.v2.json`), done],
		test_failure_fix: [command('sed -i "1i process.exit(0);" src/discount.js'), done],
	},
};

t.test('hlab eval --freeze/--plan: a link to expected data and an early exit in the tested module pass nothing', async t => {
	const dir = await scratch(t);
	await writeFile(join(dir, 'responses.json'), JSON.stringify(forgery));
	const frozen = await hlab(['eval', '--task', 'json_config_migration,test_failure_fix', '--provider', 'scripted', '--responses', join(dir, 'responses.json'), '--freeze', join(dir, 'plan.json')], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	const run = await hlab(['eval', '--plan', join(dir, 'plan.json'), '--artifacts', join(dir, 'run'), '--json'], {cwd: dir});
	t.equal(run.record.exit_code, 1, `the attempt fails: ${run.stderr}`);
	const report = Report.parse(JSON.parse(await readFile(join(dir, 'run', 'report.json'), 'utf8')));
	const byId = Object.fromEntries(report.tasks.map(task => [task.task_id, task]));
	t.equal(byId.json_config_migration?.grade?.passed, false);
	t.match(byId.json_config_migration?.grade?.details, /symlink: config\/service\.v2\.json/);
	t.equal(byId.test_failure_fix?.grade?.passed, false);
	t.match(byId.test_failure_fix?.grade?.details, /not run and passed: .*\(6 of 6 expected tests\); passed instead: test\/discount\.test\.js/);
});
