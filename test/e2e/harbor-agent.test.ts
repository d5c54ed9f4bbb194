import {readFileSync} from 'node:fs';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {testsSecret, writeThreeTasks} from '../tasks/harbor/harbor-fixture.js';
import {exampleAgent} from './agent-suite.js';

checkNoLeaks(t);

const pi = await exampleAgent('pi');

t.test('a third-party agent (pi) on a Harbor task works at /app, finds no /tests or /logs, and its verifier passes it', {skip: pi.skip}, async t => {
	// Outside /tmp (private in the sandbox) and home: only the attempt's own hiding keeps the task folder from the agent.
	const work = await mkdtemp('/var/tmp/hlab-harbor-agent-');
	t.teardown(() => rm(work, {recursive: true, force: true}));
	const three = await writeThreeTasks(join(work, 'tasks'));
	const responses = join(work, 'responses.json');
	await writeFile(responses, JSON.stringify({schema: 'harness-lab/response-script@1', tasks: {solvable: [
		{tool_calls: [{type: 'function', function: {name: 'bash', arguments: {command: `pwd; echo "done $(cat /app/seed.txt)" > /app/out.txt; ls /tests /logs; cat ${join(three.solvable, 'tests', 'secret.txt')}; true`}}}]},
		{content: 'wrote /app/out.txt'},
	]}}));
	const plan = join(work, 'plan.json');
	const frozen = await hlab(['eval', '--provider', 'scripted', '--model', 'reference', '--harbor-tasks', join(work, 'tasks'), '--task', 'solvable', '--responses', responses, '--freeze', plan], {cwd: work});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	const run = await hlab(['eval', '--plan', plan, '--agent', pi.spec, '--artifacts', join(work, 'pi')], {cwd: work, timeoutMs: 180_000});
	t.equal(run.record.exit_code, 0, `${run.stdout}${run.stderr}`);
	const report = Report.parse(JSON.parse(readFileSync(join(work, 'pi', 'report.json'), 'utf8')));
	t.same(report.tasks[0]?.grade, {passed: true, score: 1, details: 'reward 1'});
	const messages = readFileSync(join(work, 'pi', 'tasks', '001-solvable', 'messages.jsonl'), 'utf8');
	t.match(messages, /\/app\\n/, 'its shell started at /app');
	t.match(messages, /cannot access '\/tests': No such file or directory/);
	t.match(messages, /cannot access '\/logs': No such file or directory/);
	t.notOk(messages.includes(testsSecret), 'the task folder\'s tests/ was hidden at its own path too');
});
