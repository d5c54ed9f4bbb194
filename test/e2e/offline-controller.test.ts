import {readdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {runInGroup} from '../../process/index.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {Decision} from '../../supervisor/compare/decision-schema.js';
import {Plan} from '../../supervisor/plan/plan-schema.js';
import {installRoot} from '../../files/install-root.js';
import {checkNoLeaks} from '../leak-check.js';
import {pinFixture} from '../supervisor/controller/fixtures.js';
import {hostBuild} from './host-build.js';
import {evalEntry} from './install-copy.js';
import {repeatedObservation, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

const sampleScript = join(installRoot, 'examples', 'controller', 'sample-controller.responses.json');

interface Ran {
	status: number | null;
	stdout: string;
	stderr: string;
}

/** `hlab ARGS` in its own process, from `cwd`, as a user would run it. */
async function hlab(cwd: string, ...args: string[]): Promise<Ran> {
	const run = await runInGroup({argv: [process.execPath, evalEntry(), ...args], cwd, deadlineMs: 180_000});
	return {status: run.record.exit_code, stdout: run.stdout?.toString() ?? '', stderr: run.stderr?.toString() ?? ''};
}

async function readReport(dir: string): Promise<Report> {
	return Report.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));
}

/** A script for the `decides.mjs` controller: both of its tasks ask for done.txt. */
const decidesScript = {
	schema: 'harness-lab/response-script@1',
	tasks: Object.fromEntries(['alpha', 'beta'].map(id => [id, [
		{tool_calls: [{type: 'function', function: {name: 'write_file', arguments: {path: 'done.txt', content: 'done\n'}}}]},
		{tool_calls: [{type: 'function', function: {name: 'done', arguments: {summary: 'wrote done.txt'}}}]},
	]])),
};

t.test('the sample controller plan runs offline: freeze, baseline, candidate, compare; its accept answers revise (exit 3)', async t => {
	const dir = await scratch(t);
	const built = await hlab(dir, 'controller', 'build', '--out', 'controller');
	t.equal(built.status, 0, built.stderr);
	const frozen = await hlab(dir, 'eval', '--experiment-controller', 'controller/controller.json', '--responses', sampleScript, '--freeze', 'plan.json');
	t.equal(frozen.status, 0, frozen.stderr);
	t.match(frozen.stdout, /responses: .*sample-controller\.responses\.json \(sha256:/);
	const plan = Plan.parse(JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')));
	t.equal(plan.provider.kind === 'scripted' ? plan.provider.responses?.path : null, sampleScript, 'the script is part of the provider identity');

	const baseline = await hlab(dir, 'eval', '--plan', 'plan.json', '--artifacts', 'baseline', '--json');
	t.equal(baseline.status, 0, baseline.stderr);
	const candidate = await hlab(dir, 'eval', '--plan', 'plan.json', '--artifacts', 'candidate', '--candidate', repeatedObservation, '--json');
	t.equal(candidate.status, 0, candidate.stderr);
	for (const side of ['baseline', 'candidate']) {
		const report = await readReport(join(dir, side));
		t.equal(report.passed, true, `${side}: the controller's score passes every task`);
		t.same(report.tasks.map(task => task.task_id), ['greeting', 'shout', 'reverse', 'count']);
		t.ok(report.tasks.every(task => task.usage !== null && task.usage.turns >= 2), `${side}: every task took the script's turns`);
	}
	// The controller's own setup and score calls are in the attempt's evidence.
	const calls = await readdir(join(dir, 'baseline', 'controller', 'calls'));
	t.equal(calls.filter(name => name.endsWith('-setup')).length, 4, `a setup call per task (${calls.join(', ')})`);
	t.equal(calls.filter(name => name.endsWith('-score')).length, 4, 'a score call per task');

	const compared = await hlab(dir, 'eval', '--compare', 'baseline/report.json,candidate/report.json', '--decision-output', 'decision.json');
	t.equal(compared.status, 3, `revise has its own exit status\n${compared.stdout}${compared.stderr}`);
	const decision = Decision.parse(JSON.parse(await readFile(join(dir, 'decision.json'), 'utf8')));
	t.equal(decision.decision, 'revise');
	t.match(decision.checks.find(check => check.rule === 'controller')?.message ?? '', /tokens did not go down/, 'the sample controller gave the reason');
	t.ok((await readdir(join(dir, 'decision.evidence', 'controller'))).length > 0, 'the accept call is kept beside the decision');
});

for (const told of ['accept', 'revise'] as const) {
	t.test(`a controller that answers ${told} decides the offline comparison`, async t => {
		const dir = await scratch(t);
		await writeFile(join(dir, 'controller.json'), JSON.stringify(await pinFixture('decides.mjs', [told])));
		await writeFile(join(dir, 'responses.json'), JSON.stringify(decidesScript));
		const frozen = await hlab(dir, 'eval', '--experiment-controller', 'controller.json', '--responses', 'responses.json', '--freeze', 'plan.json');
		t.equal(frozen.status, 0, frozen.stderr);
		for (const side of ['baseline', 'candidate']) {
			const ran = await hlab(dir, 'eval', '--plan', 'plan.json', '--artifacts', side, '--side', side, '--json');
			t.equal(ran.status, 0, ran.stderr);
		}
		const compared = await hlab(dir, 'eval', '--compare', 'baseline/report.json,candidate/report.json', '--decision-output', 'decision.json', '--json');
		t.equal(compared.status, told === 'accept' ? 0 : 3, compared.stderr);
		const decision = Decision.parse(JSON.parse(compared.stdout));
		t.equal(decision.decision, told);
		t.match(decision.checks.find(check => check.rule === 'controller')?.message ?? '', /the candidate passes 2 of 2/);
	});
}

t.test('a controller plan runs with --candidate-host: each side a supervised host build, scored and decided by the controller', async t => {
	const dir = await scratch(t);
	await writeFile(join(dir, 'controller.json'), JSON.stringify(await pinFixture('decides.mjs', ['accept'])));
	await writeFile(join(dir, 'responses.json'), JSON.stringify(decidesScript));
	const frozen = await hlab(dir, 'eval', '--experiment-controller', 'controller.json', '--responses', 'responses.json', '--freeze', 'plan.json');
	t.equal(frozen.status, 0, frozen.stderr);
	const host = await hostBuild(t);
	for (const side of ['baseline', 'candidate']) {
		const ran = await hlab(dir, 'eval', '--plan', 'plan.json', '--candidate-host', host, '--side', side, '--artifacts', side, '--json');
		t.equal(ran.status, 0, `${side}: ${ran.stderr}`);
		const report = await readReport(join(dir, side));
		t.equal(report.timing, 'supervised-host');
		t.same(report.tasks.map(task => [task.task_id, task.status]), [['alpha', 'passed'], ['beta', 'passed']], `${side}: the controller scored the host's workspaces`);
		t.ok(report.tasks.every(task => task.usage?.turns === 2), `${side}: the metered turns are the script's`);
	}
	const compared = await hlab(dir, 'eval', '--compare', 'baseline/report.json,candidate/report.json', '--decision-output', 'decision.json', '--json');
	t.equal(compared.status, 0, compared.stderr);
	const decision = Decision.parse(JSON.parse(compared.stdout));
	t.equal(decision.decided_by, 'controller');
	t.equal(decision.timing?.kind, 'supervised');
});

t.test('admission refuses a response script edited after freezing', async t => {
	const dir = await scratch(t);
	await writeFile(join(dir, 'controller.json'), JSON.stringify(await pinFixture('decides.mjs', ['accept'])));
	await writeFile(join(dir, 'responses.json'), JSON.stringify(decidesScript));
	t.equal((await hlab(dir, 'eval', '--experiment-controller', 'controller.json', '--responses', 'responses.json', '--freeze', 'plan.json')).status, 0);
	const edited = structuredClone(decidesScript);
	edited.tasks['alpha']!.unshift({tool_calls: [{type: 'function', function: {name: 'list_files', arguments: {path: '.'}}}]} as never);
	await writeFile(join(dir, 'responses.json'), JSON.stringify(edited));
	const ran = await hlab(dir, 'eval', '--plan', 'plan.json', '--artifacts', 'attempt', '--json');
	t.equal(ran.status, 1);
	const report = await readReport(join(dir, 'attempt'));
	t.equal(report.admission.admitted, false);
	t.match(report.admission.differences.join('\n'), /response script: .*responses\.json was sha256:\S+, now sha256:\S+ \(edited after freezing\)/);
	t.ok(report.tasks.every(task => task.reason === 'admission'));
});

t.test('a script that runs out, or calls a tool the harness does not offer, fails its task by name', async t => {
	const dir = await scratch(t);
	const listed = JSON.parse((await hlab(dir, 'eval', '--list', '--json')).stdout) as {tasks: Array<{id: string}>};
	const [first, second] = listed.tasks.map(task => task.id);
	// The first built-in task's script calls a tool no harness offers; the second task's runs out after one turn.
	const script = {
		schema: 'harness-lab/response-script@1',
		tasks: {
			[first!]: [{tool_calls: [{type: 'function', function: {name: 'delete_everything', arguments: {}}}]}],
			[second!]: [{tool_calls: [{type: 'function', function: {name: 'run_command', arguments: {command: 'true'}}}]}],
		},
	};
	await writeFile(join(dir, 'responses.json'), JSON.stringify(script));
	const frozen = await hlab(dir, 'eval', '--task', `${first},${second}`, '--responses', 'responses.json', '--freeze', 'plan.json');
	t.equal(frozen.status, 0, frozen.stderr);
	const ran = await hlab(dir, 'eval', '--plan', 'plan.json', '--artifacts', 'attempt', '--json');
	t.equal(ran.status, 1);
	const report = await readReport(join(dir, 'attempt'));
	const [unknown, exhausted] = report.tasks;
	t.equal(unknown?.status, 'failed');
	t.match(unknown?.message ?? '', /script_unknown_tool: turn 1 of the response script of \S+ calls delete_everything/);
	t.equal(exhausted?.status, 'failed');
	t.match(exhausted?.message ?? '', /script_exhausted: the response script of \S+ has 1 turn; the run asks for turn 2/);
});
