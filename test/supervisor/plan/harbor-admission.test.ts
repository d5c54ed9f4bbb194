import {appendFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {admit} from '../../../supervisor/plan/admission.js';
import {buildPlan} from '../../../supervisor/plan/freeze.js';
import {HarborTaskError} from '../../../supervisor/plan/freeze-harbor.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {writeThreeTasks} from '../../tasks/harbor/harbor-fixture.js';

checkNoLeaks(t);

const root = await tempDir(t, 'hlab-harbor-admission-');
const three = await writeThreeTasks(join(root, 'tasks'));
const freeze = (selection: string, deadlineMs: number | null = null) => buildPlan({
	provider: {kind: 'scripted', model: 'reference'}, selection, maxSteps: 6, deadlineMs,
	policyPath: null, controllerPath: null, configPath: null, cwd: root, harborDir: join(root, 'tasks'),
});

t.test('freeze names every refused task; an unknown id and mixed WORKDIRs are refused too', async t => {
	const refused = await freeze('all').catch((error: unknown) => error);
	t.ok(refused instanceof HarborTaskError, 'bad input (exit 2)');
	t.match(refused, {reason: 'harbor_task', message: /^Harbor task needs_package refused: .*cowsay/});
	await t.rejects(freeze('solvable,nope'), {message: /unknown Harbor task nope \(the folder has needs_package, solvable, zero_reward\)/});
	const other = await tempDir(t, 'hlab-harbor-workdirs-');
	await writeThreeTasks(other);
	await writeFile(join(other, 'zero_reward', 'environment', 'Dockerfile'), 'FROM debian:bookworm\nWORKDIR /work2\n');
	await t.rejects(buildPlan({provider: {kind: 'scripted', model: 'reference'}, selection: 'solvable,zero_reward', maxSteps: 6, deadlineMs: null, policyPath: null, controllerPath: null, configPath: null, cwd: root, harborDir: other}), {message: /different WORKDIRs \(\/app, \/work2\)/});
});

t.test('--timeout replaces task.toml\'s deadline; without it each task keeps its own and the plan records the longest', async t => {
	const own = await freeze('solvable,zero_reward');
	t.same(own.harbor?.tasks.map(task => task.agent_timeout_ms), [60_000, 45_000]);
	t.equal(own.budgets.timeout_ms, 60_000);
	t.equal(own.budgets.memory_limit_bytes, 1024 ** 3, 'the plan\'s memory limit is the tasks\' memory_mb');
	const given = await freeze('solvable,zero_reward', 5000);
	t.same(given.harbor?.tasks.map(task => task.agent_timeout_ms), [5000, 5000]);
});

t.test('admission refuses a plan whose verifier, instruction or environment changed since freezing', async t => {
	const plan = await freeze('solvable,zero_reward');
	const options = {configPath: null, cwd: root};
	t.same((await admit(plan, options)).differences, [], 'admitted as frozen');
	await appendFile(join(three.solvable, 'tests', 'test.sh'), '# edited\n');
	await appendFile(join(three.zeroReward, 'instruction.md'), 'More.\n');
	await appendFile(join(three.zeroReward, 'environment', 'Dockerfile'), `RUN apt-get install -y cowsay\n`);
	const now = await admit(plan, options);
	t.equal(now.admitted, false);
	const text = now.differences.join('\n');
	t.match(text, new RegExp(`scorer: ${join(three.solvable, 'tests', 'test.sh')} changed`));
	t.match(text, new RegExp(`task sources: ${join(three.zeroReward, 'instruction.md')} changed`));
	t.match(text, /harbor task zero_reward: Dockerfile line 6: needs the package cowsay/);
});
