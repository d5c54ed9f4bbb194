import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {Decision} from '../../supervisor/compare/decision-schema.js';
import {HostAttemptRecord} from '../../supervisor/host/index.js';
import {ProcessRecord} from '../../process/index.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {freeze, scratch} from './experiment-fixture.js';
import {hostBuild} from './host-build.js';

checkNoLeaks(t);

// Two tasks whose scripted reference runs no test command, so the file stays fast; the build is made once (and shared with the run's other host-candidate files).
const tasks = 'json_config_migration,sales_report';
const policy = {concurrency: 2, acceptance: {require_all_pass: true, improvement: 'non-regression', max_duration_ratio: 1000}};

async function readReport(dir: string): Promise<Report> {
	return Report.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));
}

async function processWall(dir: string, rel: string): Promise<number> {
	return ProcessRecord.parse(JSON.parse(await readFile(join(dir, rel), 'utf8'))).wall_ms;
}

t.test('host candidates: supervised attempts, supervised timing, mixed timing refused', async t => {
	const dir = await scratch(t);
	const host = await hostBuild(t);
	const plan = await freeze({dir, tasks, policy});
	const run = (args: string[]) => hlab(['eval', '--plan', plan, '--json', ...args], {timeoutMs: 150_000});
	// The three attempts are independent; running them together keeps the file short.
	const [baselineRun, candidateRun, inProcessRun] = await Promise.all([
		run(['--candidate-host', host, '--side', 'baseline', '--artifacts', join(dir, 'baseline')]),
		run(['--candidate-host', host, '--artifacts', join(dir, 'candidate')]),
		run(['--artifacts', join(dir, 'in-process')]),
	]);
	for (const [name, result] of [['baseline', baselineRun], ['candidate', candidateRun], ['in-process', inProcessRun]] as const) {
		t.equal(result.record.exit_code, 0, `${name} attempt passed: ${result.stdout}${result.stderr}`);
	}

	t.test('a host attempt grades in the supervisor and cites the supervisor\'s process record of each task', async t => {
		const baseline = await readReport(join(dir, 'baseline'));
		const candidate = await readReport(join(dir, 'candidate'));
		t.equal(baseline.side, 'baseline', '--side baseline labels the report');
		t.equal(candidate.side, 'candidate', 'a host attempt is the candidate side by default');
		for (const [name, report] of [['baseline', baseline], ['candidate', candidate]] as const) {
			t.equal(report.timing, 'supervised-host');
			t.equal(report.host?.launched, host);
			t.equal(report.passed, true);
			for (const task of report.tasks) {
				t.equal(task.grade?.passed, true, `${name} ${task.task_id} graded by the supervisor`);
				t.ok(task.evidence.process, `${name} ${task.task_id} cites process.json`);
				t.equal(task.wall_ms, await processWall(join(dir, name), task.evidence.process!), 'wall time is the process record\'s');
			}
			const record = HostAttemptRecord.parse(JSON.parse(await readFile(join(dir, `${name}.host`, 'host.json'), 'utf8')));
			t.equal(record.closed?.binary_unchanged, true);
			t.same(record.closed?.answered, report.task_ids);
		}
		const inProcess = await readReport(join(dir, 'in-process'));
		t.equal(inProcess.timing, 'in-process');
		t.equal(inProcess.host, null);
		t.notOk(existsSync(join(dir, 'in-process.host')), 'an in-process attempt keeps no host folder');
	});

	t.test('two supervised hosts are compared on their whole attempts\' wall times, the process records\' sums beside them', async t => {
		const compared = await hlab(['eval', '--compare', `${join(dir, 'baseline', 'report.json')},${join(dir, 'candidate', 'report.json')}`, '--decision-output', join(dir, 'decision.json'), '--json']);
		const decision = Decision.parse(JSON.parse(await readFile(join(dir, 'decision.json'), 'utf8')));
		t.equal(decision.timing?.kind, 'supervised');
		t.equal(decision.decision, 'accept', decision.checks.map(check => check.message).join('\n'));
		t.equal(compared.record.exit_code, 0);
		const sum = async (name: string): Promise<number> => {
			let total = 0;
			for (const id of ['001-json_config_migration', '002-sales_report']) total += await processWall(join(dir, `${name}.host`), join('tasks', id, 'process.json'));
			return total;
		};
		const [b, c] = [await sum('baseline'), await sum('candidate')];
		t.equal(decision.timing?.baseline_task_sum_ms, b);
		t.equal(decision.timing?.candidate_task_sum_ms, c);
		const whole = async (name: string): Promise<number> => HostAttemptRecord.parse(JSON.parse(await readFile(join(dir, `${name}.host`, 'host.json'), 'utf8'))).closed!.attempt_wall_ms!;
		const [wb, wc] = [await whole('baseline'), await whole('candidate')];
		t.equal(decision.timing?.baseline_wall_ms, wb);
		t.equal(decision.timing?.candidate_wall_ms, wc);
		t.ok(Math.abs((decision.duration_ratio ?? NaN) - wc / wb) < 1e-9, 'the duration ratio is of the whole attempts');
		t.match(decision.checks.find(check => check.rule === 'max_duration_ratio')?.message, /whole-attempt/);
		// The built host's engine counts what the provider reported, as the supervisor's proxy does.
		t.equal(decision.checks.find(check => check.rule === 'metering')?.satisfied, true, 'the build\'s usage claims match the metering');
	});

	t.test('a comparison of a supervised host with an in-process side is refused as mixed timing', async t => {
		const compared = await hlab(['eval', '--compare', `${join(dir, 'in-process', 'report.json')},${join(dir, 'candidate', 'report.json')}`, '--json']);
		t.equal(compared.record.exit_code, 1);
		t.match(compared.stderr, /mixed_timing/);
		const decision = Decision.parse(JSON.parse(compared.stdout));
		t.equal(decision.decision, 'reject');
		t.equal(decision.timing?.reason, 'mixed_timing');
		t.ok(decision.checks.some(check => check.rule === 'timing' && !check.satisfied && check.message.startsWith('mixed_timing')));
		t.notOk(decision.checks.some(check => check.rule === 'max_duration_ratio'), 'no duration is compared');
	});
});
