import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {checkSandbox, runInGroup} from '../../process/index.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {buildPlan, writePlan} from '../../supervisor/plan/freeze.js';
import {checkNoLeaks} from '../leak-check.js';
import {attempt, scratch} from './experiment-fixture.js';
import {evalEntry} from './install-copy.js';

checkNoLeaks(t);

const usable = checkSandbox();
/** Tasks whose reference behaviour runs shell commands in the workspace. */
const tasks = 'implement_function,test_failure_fix';

async function freezeSandboxed(dir: string): Promise<string> {
	const policyPath = join(dir, 'policy.json');
	await writeFile(policyPath, JSON.stringify({concurrency: 1}));
	const plan = await buildPlan({
		provider: {kind: 'scripted', model: 'reference'}, selection: tasks, maxSteps: 12, deadlineMs: 60_000,
		policyPath, controllerPath: null, configPath: null, cwd: dir, sandbox: true,
	});
	const path = join(dir, 'plan.json');
	await writePlan(path, plan);
	return path;
}

/** `hlab eval ...` where bwrap cannot be found: PATH names no directory that has it. */
function hlabWithoutBwrap(args: string[]) {
	return runInGroup({argv: [process.execPath, evalEntry(), 'eval', ...args], env: {PATH: '/nonexistent'}, deadlineMs: 120_000});
}

t.test('a sandboxed plan runs its tool commands under bubblewrap, and the tasks still pass', {skip: usable.ok ? false : usable.reason}, async t => {
	const dir = await scratch(t);
	const planPath = await freezeSandboxed(dir);
	const plan = JSON.parse(await readFile(planPath, 'utf8')) as {sandbox?: {kind: string; version: string}};
	t.same(plan.sandbox, {kind: 'bubblewrap', version: usable.ok ? usable.version : ''}, 'the plan freezes the sandbox');
	const {dir: evidence, report} = await attempt(planPath, join(dir, 'run'));
	t.equal(report.passed, true, report.tasks.map(task => task.message).join('; '));
	const journal = await readFile(join(evidence, report.tasks[0]!.evidence.journal!), 'utf8');
	const commands = journal.split('\n').filter(Boolean).map(line => JSON.parse(line) as {type?: string; kind?: string; process?: {sandbox?: {hidden: string[]; writable: string[]; network: boolean}}})
		.filter(entry => entry.process !== undefined);
	t.ok(commands.length > 0, 'the journal has tool commands');
	for (const command of commands) {
		t.equal(command.process!.sandbox?.network, false, 'each ran without network');
		t.ok(command.process!.sandbox?.hidden.includes(evidence), 'with the evidence directory hidden');
		t.ok(command.process!.sandbox?.hidden.includes(planPath), 'and the plan');
	}
});

t.test('--sandbox is refused at freeze, in one line, where bwrap is missing', async t => {
	const dir = await scratch(t);
	const run = await hlabWithoutBwrap(['--freeze', join(dir, 'plan.json'), '--task', tasks, '--sandbox']);
	t.equal(run.record.exit_code, 2);
	const stderr = run.stderr?.toString() ?? '';
	t.equal(stderr.trim().split('\n').length, 1, stderr);
	t.match(stderr, /--sandbox: bwrap is not on PATH: install bubblewrap/);
});

t.test('a sandboxed plan is refused at admission where bwrap is missing: nothing runs unsandboxed', {skip: usable.ok ? false : usable.reason}, async t => {
	const dir = await scratch(t);
	const planPath = await freezeSandboxed(dir);
	const artifacts = join(dir, 'run');
	const run = await hlabWithoutBwrap(['--plan', planPath, '--artifacts', artifacts, '--json']);
	t.equal(run.record.exit_code, 1, run.stderr?.toString() ?? '');
	const report = Report.parse(JSON.parse(await readFile(join(artifacts, 'report.json'), 'utf8')));
	t.equal(report.admission.admitted, false);
	t.ok(report.admission.differences.some(line => /^sandbox: the plan runs under bubblewrap .*bwrap is not on PATH/.test(line)), report.admission.differences.join('\n'));
	t.ok(report.tasks.every(task => task.reason === 'admission' && task.outcome === null), 'no task ran');
});
