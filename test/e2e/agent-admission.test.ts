import {appendFile, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {freezeAgentPlan} from '../supervisor/agent/command-agents.js';

checkNoLeaks(t);

const readReport = async (dir: string): Promise<Report> => Report.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));

t.test('an installed agent whose files changed since its install is refused at admission, with the file named', async t => {
	const dir = await tempDir(t, 'hlab-agent-admission-');
	const store = join(dir, 'store');
	const env = {HLAB_AGENT_STORE: store};
	// A real, small package with a bin and no dependencies, from the registry, run through the command adapter.
	const spec = join(dir, 'semver-agent.json');
	await writeFile(spec, JSON.stringify({schema: 'harness-lab/agent@1', adapter: 'command', package: {name: 'semver', version: '7.7.2'}, executable: 'semver', task_input: 'argument'}));
	const installed = await hlab(['agents', 'install', spec], {env});
	t.equal(installed.record.exit_code, 0, installed.stderr);
	const plan = await freezeAgentPlan(t, dir);

	const intact = join(dir, 'intact');
	await hlab(['eval', '--plan', plan, '--agent', spec, '--artifacts', intact, '--json'], {env});
	const ran = await readReport(intact);
	t.not(ran.tasks[0]!.reason, 'admission', 'the intact install is admitted (semver then runs, and fails the task as a crash)');
	t.match(ran.agent, {package: {name: 'semver', version: '7.7.2'}, installed_digest: /^sha256:/});
	t.match(await readFile(join(intact, 'tasks', '001-answer_from_prompt', 'agent-task.json'), 'utf8'), /node_modules\/.bin\/semver/);

	await appendFile(join(store, 'semver@7.7.2', 'node_modules', 'semver', 'index.js'), '\n// changed after the install\n');
	const changed = join(dir, 'changed');
	const refused = await hlab(['eval', '--plan', plan, '--agent', spec, '--artifacts', changed, '--json'], {env});
	t.equal(refused.record.exit_code, 1, refused.stderr);
	const report = await readReport(changed);
	const task = report.tasks[0]!;
	t.equal(task.reason, 'admission');
	t.match(task.message, /node_modules\/semver\/index\.js changed since it was installed/, 'the changed file is named');
	t.equal(task.evidence.agent_task, undefined, 'the agent never ran');
});
