import {readdirSync, readFileSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {checkSandbox} from '../../../../process/index.js';
import {buildPlan, writePlan} from '../../../../supervisor/plan/freeze.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {attempt, scratch} from '../../../e2e/experiment-fixture.js';

checkNoLeaks(t);

/** The pid of this process's child that runs the scripted provider, or null while there is none. */
function scriptedProviderChild(): number | null {
	for (const thread of readdirSync(`/proc/${process.pid}/task`)) {
		const children = readFileSync(`/proc/${process.pid}/task/${thread}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
		for (const pid of children) {
			const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
			if (argv.some(arg => arg.endsWith('scripted/server-main.js'))) return pid;
		}
	}
	return null;
}

async function ledgerLines(dir: string): Promise<number> {
	const text = await readFile(join(dir, 'ledger.jsonl'), 'utf8').catch(() => '');
	return text.split('\n').filter(Boolean).length;
}

/** 24 one-turn tasks at concurrency 2 on the scripted provider, 60 s deadlines; in the sandboxed task runner or not. */
async function freezeMany(dir: string, sandbox: boolean): Promise<string> {
	await writeFile(join(dir, 'policy.json'), JSON.stringify({concurrency: 2}));
	const plan = await buildPlan({
		provider: {kind: 'scripted', model: 'reference'}, selection: 'answer_from_prompt', repeat: 24, maxSteps: 12, deadlineMs: 60_000,
		policyPath: join(dir, 'policy.json'), controllerPath: null, configPath: null, cwd: dir, responsesPath: null, sandbox,
	});
	await writePlan(join(dir, 'plan.json'), plan);
	return join(dir, 'plan.json');
}

const usable = checkSandbox();

t.test('the scripted provider killed mid-attempt: the tasks left fail at once as infrastructure, and the report names the death', {timeout: 180_000}, async t => {
	await killMidAttempt(t, false);
});

t.test('the same in the sandboxed task runner: the runner is told, and its tasks stop asking too', {timeout: 180_000, skip: usable.ok ? false : usable.reason}, async t => {
	await killMidAttempt(t, true);
});

async function killMidAttempt(t: Test, sandbox: boolean): Promise<void> {
	const dir = await scratch(t);
	const plan = await freezeMany(dir, sandbox);
	const artifacts = join(dir, 'run');
	const running = attempt(plan, artifacts);
	let killedAt = 0;
	// Killed once a few tasks are on record, so the rest are running or yet to start.
	const killer = (async () => {
		for (;;) {
			const pid = scriptedProviderChild();
			if (pid !== null && (await ledgerLines(artifacts)) >= 4) {
				process.kill(pid, 'SIGKILL');
				killedAt = Date.now();
				return;
			}
			await new Promise(resolve => setTimeout(resolve, 20));
		}
	})();
	const {report} = await running;
	await killer;
	const passed = report.tasks.filter(task => task.status === 'passed');
	const after = report.tasks.filter(task => task.status === 'failed');
	t.ok(passed.length >= 4 && after.length >= 16, `some passed before the kill (${passed.length}), the rest failed (${after.length})`);
	t.same([...new Set(after.map(task => task.reason))], ['provider'], 'every one failed `provider`');
	t.ok(after.every(task => task.outcome?.infrastructure === true), 'each is an infrastructure failure');
	t.ok(after.every(task => task.message?.includes('service died')), `each says the service died (${after[0]?.message})`);
	const slowest = Math.max(...after.map(task => task.wall_ms ?? Infinity));
	t.comment(`failed tasks' wall times: ${after.map(task => Math.round(task.wall_ms ?? -1)).join(' ')}; passed: ${passed.map(task => Math.round(task.wall_ms ?? -1)).join(' ')}`);
	// Tens of milliseconds each here; the one in flight at the kill a few hundred; the margin is for a loaded machine.
	t.ok(slowest < 3000, `none waited out its deadline for the dead service (slowest ${Math.round(slowest)} ms of a 60 s deadline)`);
	const death = report.problems.find(problem => problem.includes('scripted-provider'));
	t.ok(death !== undefined, `a problem names the service: ${report.problems.join(' | ')}`);
	const at = Date.parse(/died at (\S+)/.exec(death ?? '')?.[1] ?? '');
	t.ok(Math.abs(at - killedAt) < 1000, 'and when it died');
	t.match(death, /signal SIGKILL/, 'and how');
	t.equal(report.passed, false);
}
