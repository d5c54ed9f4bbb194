import {join} from 'node:path';
import t, {type Test} from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {compileCandidate, loadCandidate, validateCandidate, type LoadedPlugin} from '../../engine/index.js';
import {installRoot as projectRoot} from '../../files/install-root.js';
import {getTask} from '../../tasks/index.js';
import {runScripted, scriptedServer, tempDir} from '../engine/engine-run.js';

checkNoLeaks(t);

const candidate = (name: string): string => join(projectRoot, 'examples', 'candidates', `${name}.ts`);
const server = await scriptedServer(t);

async function attempt(t: Test, taskId: string, plugins: LoadedPlugin[]) {
	const task = getTask(taskId)!;
	const workspace = join(await tempDir(t), 'ws');
	await task.setup(workspace);
	const run = await runScripted(t, server, task, {workspace, plugins});
	return {outcome: run.outcome, grade: await task.grade(workspace, {deadlineMs: 30_000})};
}

t.test('both example candidates pass validation', async t => {
	for (const name of ['step-budget', 'repeated-observation']) {
		const verdict = await validateCandidate(candidate(name));
		t.equal(verdict.valid, true, `${name}: ${verdict.errors.join('; ')}`);
	}
});

t.test('step-budget stops at its step index', async t => {
	const plugin = await loadCandidate(await compileCandidate(candidate('step-budget')));
	const {outcome} = await attempt(t, 'json_config_migration', [plugin]);
	t.same([outcome.status, outcome.stopped_by, outcome.usage.turns], ['policy_stop', {plugin: 'step-budget', reason: 'local_budget'}, 6]);
});

t.test('repeated-observation saves a turn and tokens on a task that does not poll, and the work stays correct', async t => {
	const plugin = await loadCandidate(await compileCandidate(candidate('repeated-observation')));
	const baseline = await attempt(t, 'implement_function', []);
	const withPolicy = await attempt(t, 'implement_function', [plugin]);
	t.same([baseline.outcome.status, baseline.grade.passed], ['done', true]);
	t.same([withPolicy.outcome.status, withPolicy.grade.passed], ['policy_stop', true], withPolicy.grade.details);
	t.equal(withPolicy.outcome.usage.turns, baseline.outcome.usage.turns - 1, 'one model turn fewer');
	t.ok(withPolicy.outcome.usage.total_tokens! < baseline.outcome.usage.total_tokens!, `fewer tokens (${withPolicy.outcome.usage.total_tokens} < ${baseline.outcome.usage.total_tokens})`);
	t.match(withPolicy.outcome.final_text, /correctness is unresolved/);
});

t.test('repeated-observation stops too early on the polling task, and the grader says so', async t => {
	const plugin = await loadCandidate(await compileCandidate(candidate('repeated-observation')));
	const baseline = await attempt(t, 'background_job_poll', []);
	t.same([baseline.outcome.status, baseline.grade.passed], ['done', true], baseline.grade.details);
	const withPolicy = await attempt(t, 'background_job_poll', [plugin]);
	t.equal(withPolicy.outcome.status, 'policy_stop');
	t.equal(withPolicy.grade.passed, false, withPolicy.grade.details);
});
