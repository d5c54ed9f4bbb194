import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {installRoot} from '../../files/install-root.js';
import {checkSandbox, ProcessRecord} from '../../process/index.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {AttemptRecord} from '../../supervisor/attempt/stages/attempt-record.js';
import {copyCartridge, examplesDir} from '../cartridges/cartridge-copy.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {repeatedObservation, scratch} from './experiment-fixture.js';
import {hostBuild} from './host-build.js';

checkNoLeaks(t);

const usable = checkSandbox();
const skip = usable.ok ? false : usable.reason;
const sampleScript = join(installRoot, 'examples', 'controller', 'sample-controller.responses.json');

const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8')) as unknown;
const readReport = async (dir: string): Promise<Report> => Report.parse(await readJson(join(dir, 'report.json')));
const executorOf = async (dir: string): Promise<string | null> => AttemptRecord.parse(await readJson(join(dir, 'attempt.json'))).executor;
const verdicts = (report: Report): Array<[string, string]> => report.tasks.map(task => [task.task_id, task.status]).sort(([a], [b]) => a!.localeCompare(b!)) as Array<[string, string]>;

interface Side {
	report: Report;
	executor: string | null;
}

type Plans = Record<'sandboxed' | 'plain', string>;

/** `hlab eval --freeze` from `cwd`, once with --sandbox and once without. */
async function freezeBoth(t: Test, cwd: string, freezeArgs: string[]): Promise<Plans> {
	const plans: Partial<Plans> = {};
	for (const name of ['sandboxed', 'plain'] as const) {
		const plan = join(cwd, `${name}-plan.json`);
		const frozen = await hlab(['eval', ...freezeArgs, ...(name === 'sandboxed' ? ['--sandbox'] : []), '--freeze', plan], {cwd});
		t.equal(frozen.record.exit_code, 0, `${name} freeze: ${frozen.stderr}`);
		if (name === 'sandboxed') t.match(frozen.stdout, /sandbox: bubblewrap \S+ \(in-process tasks in a sandboxed task runner, tool commands and host candidates/, 'the freeze summary says what runs sandboxed');
		plans[name] = plan;
	}
	return plans as Plans;
}

/** `hlab eval --plan` (with `extra`) from `cwd`, of each plan, into `<cwd>/<name>`. */
async function runBoth(t: Test, cwd: string, plans: Plans, extra: string[] = []): Promise<{sandboxed: Side; plain: Side}> {
	const sides: Partial<Record<'sandboxed' | 'plain', Side>> = {};
	for (const name of ['sandboxed', 'plain'] as const) {
		const dir = join(cwd, name);
		const ran = await hlab(['eval', '--plan', plans[name], '--artifacts', dir, ...extra], {cwd, timeoutMs: 150_000});
		t.equal(ran.record.exit_code, 0, `${name} attempt: ${ran.stdout}${ran.stderr}`);
		sides[name] = {report: await readReport(dir), executor: await executorOf(dir)};
	}
	return sides as {sandboxed: Side; plain: Side};
}

async function bothWays(t: Test, cwd: string, freezeArgs: string[], extra: string[] = []): Promise<{sandboxed: Side; plain: Side}> {
	return runBoth(t, cwd, await freezeBoth(t, cwd, freezeArgs), extra);
}

const cartridgeArgs = (name: string): string[] => ['--cartridge', join(examplesDir, `${name}.cartridge`), '--responses', join(examplesDir, `${name}.responses.json`)];

// The report agent's two plans serve its baseline test and its candidate test (frozen once, by whichever runs first).
const shared = await tempDir(t, 'hlab-e2e-plans-');
let reportAgentPlans: Promise<Plans> | null = null;
const reportAgentPlansFor = (t: Test): Promise<Plans> => (reportAgentPlans ??= freezeBoth(t, shared, cartridgeArgs('report_agent')));

for (const name of ['report_agent', 'settings_agent']) {
	t.test(`the ${name} cartridge passes under --sandbox in the task runner, as it does unsandboxed`, {skip}, async t => {
		const dir = await scratch(t);
		const {sandboxed, plain} = name === 'report_agent' ? await runBoth(t, dir, await reportAgentPlansFor(t)) : await bothWays(t, dir, cartridgeArgs(name));
		t.equal(sandboxed.report.passed, true, sandboxed.report.tasks.map(task => task.message).join('; '));
		t.same(verdicts(sandboxed.report), verdicts(plain.report), 'the same verdicts');
		t.equal(sandboxed.executor, 'sandboxed-runner', 'attempt.json names the sandboxed runner');
		t.equal(plain.executor, 'in-process');
	});
}

t.test('a candidate cartridge of a sandboxed plan runs in the task runner too, and passes', {skip}, async t => {
	const dir = await scratch(t);
	const candidate = await copyCartridge(t, 'report_agent', {'prompts/system.md': '# Report agent\n\nPublish the report with publish_report, then call done.\n'});
	const {sandboxed, plain} = await runBoth(t, dir, await reportAgentPlansFor(t), ['--candidate-cartridge', candidate]);
	t.equal(sandboxed.report.side, 'candidate');
	t.equal(sandboxed.report.passed, true, sandboxed.report.tasks.map(task => task.message).join('; '));
	t.same(verdicts(sandboxed.report), verdicts(plain.report));
	t.equal(sandboxed.executor, 'sandboxed-runner');
});

t.test('the sample controller plan passes under --sandbox, baseline and candidate plugin, in the task runner', {skip}, async t => {
	const dir = await scratch(t);
	const built = await hlab(['controller', 'build', '--out', 'controller'], {cwd: dir});
	t.equal(built.record.exit_code, 0, built.stderr);
	const controller = ['--experiment-controller', 'controller/controller.json', '--responses', sampleScript];
	const {sandboxed, plain} = await bothWays(t, dir, controller);
	t.equal(sandboxed.report.passed, true, sandboxed.report.tasks.map(task => task.message).join('; '));
	t.same(verdicts(sandboxed.report), verdicts(plain.report), 'the same verdicts');
	t.equal(sandboxed.executor, 'sandboxed-runner');
	t.equal(plain.executor, 'in-process');

	const candidate = await hlab(['eval', '--plan', 'sandboxed-plan.json', '--artifacts', 'candidate', '--candidate', repeatedObservation], {cwd: dir, timeoutMs: 150_000});
	t.equal(candidate.record.exit_code, 0, `${candidate.stdout}${candidate.stderr}`);
	const report = await readReport(join(dir, 'candidate'));
	t.equal(report.passed, true);
	t.same(verdicts(report), verdicts(plain.report));
	t.equal(await executorOf(join(dir, 'candidate')), 'sandboxed-runner');
});

t.test('a host candidate passes under --sandbox, its task processes under bubblewrap, as it does unsandboxed', {skip}, async t => {
	const dir = await scratch(t);
	const {sandboxed, plain} = await bothWays(t, dir, ['--task', 'json_config_migration,sales_report'], ['--candidate-host', await hostBuild(t)]);
	t.equal(sandboxed.report.passed, true, sandboxed.report.tasks.map(task => task.message).join('; '));
	t.same(verdicts(sandboxed.report), verdicts(plain.report), 'the same verdicts');
	t.equal(sandboxed.executor, 'host');
	t.equal(plain.executor, 'host');
	for (const [name, side, contained] of [['sandboxed', sandboxed, true], ['plain', plain, false]] as const) {
		for (const task of side.report.tasks) {
			const record = ProcessRecord.parse(await readJson(join(dir, name, task.evidence.process!)));
			t.equal(record.sandbox !== null, contained, `${name} ${task.task_id}: the host's process record says ${contained ? 'sandboxed' : 'not sandboxed'}`);
		}
	}
});
