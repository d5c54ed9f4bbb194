import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {Decision} from '../../supervisor/compare/decision-schema.js';
import {HostAttemptRecord, HostTaskRecord} from '../../supervisor/host/index.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {writeSyntheticHost} from '../supervisor/host/synthetic-host.js';
import {freeze, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

const tasks = 'json_config_migration,sales_report';
// Nothing passes (the hosts do no work), so acceptance turns only on the checks this file is about.
const policy = {concurrency: 2, acceptance: {require_all_pass: false, improvement: 'non-regression', max_duration_ratio: 1000}};

/**
 * A host that asks the scripted provider for two turns through the endpoint it was served, stays a while (so the
 * two concurrent tasks overlap), and reports its usage; `claim` rewrites the truthful figures it adds up.
 */
const asksTwice = (claim: string) => `
	const tools = ['list_files', 'read_file', 'write_file', 'run_command'].map(name => ({type: 'function', function: {name, parameters: {type: 'object', properties: {}}}}));
	const turns = [];
	for (let turn = 0; turn < 2; turn++) {
		const answer = await fetch(request.provider.base_url + '/chat/completions', {method: 'POST', headers: {'content-type': 'application/json'},
			body: JSON.stringify({model: request.provider.model, messages: [{role: 'user', content: request.task.prompt}], tools})});
		const body = await answer.json();
		if (!answer.ok) { process.stderr.write(JSON.stringify(body)); process.exit(4); }
		turns.push(body.usage);
	}
	await new Promise(resolve => setTimeout(resolve, 700));
	const input = turns.reduce((sum, u) => sum + u.prompt_tokens, 0);
	const output = turns.reduce((sum, u) => sum + u.completion_tokens, 0);
	const truth = {turns: 2, input_tokens: input, output_tokens: output, cache_read_tokens: null, cache_write_tokens: null, total_tokens: input + output, cost_usd: null};
	const claimed = ${claim};
	return {version: 1, binary: self, task_id: request.task.id, outcome: {...done, steps: 2, usage: claimed}};`;

async function readReport(dir: string): Promise<Report> {
	return Report.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));
}

t.test('host attempts on the scripted provider: whole-attempt wall time, metered usage, claims beside them', async t => {
	const dir = await scratch(t);
	const honest = await writeSyntheticHost(dir, 'honest-host', asksTwice('truth'));
	const under = await writeSyntheticHost(dir, 'under-reporting-host', asksTwice('{...truth, output_tokens: 1, total_tokens: truth.input_tokens + 1}'));
	const plan = await freeze({dir, tasks, policy});
	const run = (exe: string, name: string, side: string) => hlab(['eval', '--plan', plan, '--json', '--candidate-host', exe, '--side', side, '--artifacts', join(dir, name)], {timeoutMs: 120_000});
	const runs = await Promise.all([run(honest, 'baseline', 'baseline'), run(honest, 'honest', 'candidate'), run(under, 'under', 'candidate')]);
	for (const result of runs) t.ok(result.record.exit_code === 0 || result.record.exit_code === 1, `the attempt finished: ${result.stderr}`);

	t.test('the report\'s usage is the metering, the binary\'s claim stays beside it', async t => {
		const report = await readReport(join(dir, 'baseline'));
		const measure = report.host_measure!;
		t.ok(measure, 'a supervised host side carries its measurements');
		t.equal(measure.usage_source, 'provider-proxy');
		for (const [index, task] of report.tasks.entries()) {
			const record = HostTaskRecord.parse(JSON.parse(await readFile(join(dir, 'baseline.host', 'tasks', `00${index + 1}-${task.task_id}`, 'host-task.json'), 'utf8')));
			t.equal(task.usage?.turns, 2, `${task.task_id}: two turns counted at the provider boundary`);
			t.ok((task.usage?.total_tokens ?? 0) > 0, 'tokens were counted from the provider\'s responses');
			t.same(task.usage, record.metered_usage, 'the report\'s usage is the host record\'s metering');
			t.same(task.usage_claim, record.claimed_usage, 'the claim is kept');
			t.equal(task.usage_claim?.total_tokens, task.usage?.total_tokens, 'an honest claim matches');
		}
		t.same(measure.usage_differences, []);
		t.equal(measure.claimed.total_tokens, report.totals.total_tokens);
		const host = HostAttemptRecord.parse(JSON.parse(await readFile(join(dir, 'baseline.host', 'host.json'), 'utf8')));
		t.equal(measure.attempt_wall_ms, host.closed?.attempt_wall_ms);
		t.equal(measure.task_sum_ms, host.closed?.task_sum_ms);
		t.equal(measure.task_sum_ms, report.totals.wall_ms, 'the per-task sum is the process records\' sum');
		const longest = Math.max(...report.tasks.map(task => task.wall_ms ?? 0));
		t.ok(measure.attempt_wall_ms! >= longest, 'the whole attempt spans its longest task');
		t.ok(measure.attempt_wall_ms! < measure.task_sum_ms!, 'two concurrent tasks overlap: the whole attempt is shorter than the sum');
	});

	t.test('a host that under-reports its tokens is flagged in its report', async t => {
		const report = await readReport(join(dir, 'under'));
		const differences = report.host_measure!.usage_differences;
		t.same(differences.map(row => row.task_id), report.task_ids, 'every task is listed');
		for (const row of differences) {
			t.ok(row.metered.total_tokens! > row.claimed.total_tokens!, `${row.task_id}: metered ${row.metered.total_tokens} over claimed ${row.claimed.total_tokens}`);
			t.equal(row.metered.turns, 2);
		}
		t.ok(report.totals.total_tokens! > report.host_measure!.claimed.total_tokens!, 'the totals are the metering, not the claim');
	});

	const compare = async (candidate: string, output: string) => {
		const run = await hlab(['eval', '--compare', `${join(dir, 'baseline', 'report.json')},${join(dir, candidate, 'report.json')}`, '--decision-output', join(dir, output), '--json']);
		return {run, decision: Decision.parse(JSON.parse(await readFile(join(dir, output), 'utf8')))};
	};

	t.test('compare times both hosts by their whole attempts and says so', async t => {
		const {run, decision} = await compare('honest', 'honest-decision.json');
		const [baseline, candidate] = [await readReport(join(dir, 'baseline')), await readReport(join(dir, 'honest'))];
		t.equal(decision.timing?.kind, 'supervised');
		t.equal(decision.timing?.baseline_wall_ms, baseline.host_measure?.attempt_wall_ms);
		t.equal(decision.timing?.candidate_wall_ms, candidate.host_measure?.attempt_wall_ms);
		t.equal(decision.timing?.baseline_task_sum_ms, baseline.host_measure?.task_sum_ms);
		t.equal(decision.timing?.candidate_task_sum_ms, candidate.host_measure?.task_sum_ms);
		t.ok(Math.abs((decision.duration_ratio ?? NaN) - candidate.host_measure!.attempt_wall_ms! / baseline.host_measure!.attempt_wall_ms!) < 1e-9, 'the ratio is of whole attempts');
		t.match(decision.checks.find(check => check.rule === 'timing')?.message, /whole attempt's wall time/);
		t.match(decision.checks.find(check => check.rule === 'max_duration_ratio')?.message, /whole-attempt/);
		const metering = decision.checks.find(check => check.rule === 'metering');
		t.equal(metering?.satisfied, true, metering?.message ?? 'no metering line');
		t.equal(decision.decision, 'accept', decision.checks.map(check => check.message).join('\n'));
		t.equal(run.record.exit_code, 0);
	});

	t.test('compare flags a candidate whose claims differ from the metering, with a check line', async t => {
		const {run, decision} = await compare('under', 'under-decision.json');
		const metering = decision.checks.find(check => check.rule === 'metering');
		t.equal(metering?.satisfied, false);
		t.match(metering?.message, /the candidate's binary misreported its usage on 2 tasks/);
		t.match(metering?.message, /the baseline's claims match the metering/);
		t.equal(decision.decision, 'reject', 'only the metering check stands in the way');
		t.same(decision.checks.filter(check => !check.satisfied).map(check => check.rule), ['metering']);
		t.equal(run.record.exit_code, 1);
	});
});
