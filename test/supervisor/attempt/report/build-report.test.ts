import {readFile, readdir} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {buildReport, writeReport, type ReportInput} from '../../../../supervisor/attempt/report/build-report.js';
import {failedResult} from '../../../../supervisor/attempt/task-core/failed-result.js';
import {Report, TaskResult} from '../../../../supervisor/attempt/report/report-schema.js';
import {reportSummary} from '../../../../supervisor/attempt/report/report-summary.js';
import {jsonText} from '../../../../files/write-json.js';
import {tempDir} from '../../../temp-dir.js';

function passed(index: number, id: string, turns: number, tokens: number | null): TaskResult {
	const usage = {turns, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: tokens, cost_usd: null};
	return {
		index, task_id: id, evidence: {result: `tasks/00${index + 1}-${id}/result.json`}, wall_ms: 100 * (index + 1),
		status: 'passed', reason: null, message: null, grade: {passed: true, score: 1, details: 'ok'},
		outcome: {status: 'done', reason: null, message: null, steps: turns, usage, final_text: 'done', stopped_by: null, time: null, infrastructure: null}, usage,
	};
}

function input(results: TaskResult[], change: Partial<ReportInput> = {}): ReportInput {
	return {
		attemptId: 'attempt-1', side: 'baseline', timing: 'in-process', host: null, integrity: {label: 'trusted-code', reasons: ['no-sandbox']},
		plan: {plan_digest: 'sha256:plan', task_ids: results.map(result => result.task_id)},
		completion: 'finished', admission: {admitted: true, differences: []}, candidate: null,
		results, problems: [], leaks: null, startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.000Z', wallMs: 1000,
		...change,
	};
}

t.test('the same inputs give the same report, byte for byte', async t => {
	const results = [passed(0, 'a', 3, 300), failedResult(1, 'b', {reason: 'timeout', message: 'deadline'})];
	t.equal(JSON.stringify(buildReport(input(results))), JSON.stringify(buildReport(input(structuredClone(results)))));
});

t.test('totals sum the denominator; one unknown part makes the sum unknown, never a partial number', async t => {
	const known = buildReport(input([passed(0, 'a', 3, 300), passed(1, 'b', 2, 200)]));
	t.same(known.totals, {tasks: 2, passed: 2, failed: 0, turns: 5, total_tokens: 500, cost_usd: null, wall_ms: 300});
	t.equal(known.passed, true);
	const partial = buildReport(input([passed(0, 'a', 3, 300), passed(1, 'b', 2, null)]));
	t.equal(partial.totals.total_tokens, null);
	t.equal(partial.totals.turns, 5);
});

t.test('a task the budget never launched used nothing: the totals stay known (a budget run said "tokens unknown")', async t => {
	const results = [passed(0, 'a', 3, 300), failedResult(1, 'b', {reason: 'budget', message: 'not launched'})];
	const report = buildReport(input(results));
	t.same(report.totals, {tasks: 2, passed: 1, failed: 1, turns: 3, total_tokens: 300, cost_usd: null, wall_ms: 100});
	t.equal(report.tasks[1]!.usage, null, 'the record itself still says it never reached the model');
	t.match(reportSummary('dir', report), /turns 3, tokens 300, task wall 100 ms/);
	const started = buildReport(input([passed(0, 'a', 3, 300), failedResult(1, 'b', {reason: 'timeout', message: 'deadline'})]));
	t.equal(started.totals.total_tokens, null, 'a launched task with no usage is still unknown');
});

t.test('only a finished, admitted attempt with no problem and no failed task passes', async t => {
	const all = [passed(0, 'a', 1, 10)];
	t.equal(buildReport(input(all)).passed, true);
	t.equal(buildReport(input(all, {completion: 'interrupted'})).passed, false, 'interrupted');
	t.equal(buildReport(input(all, {completion: 'recovered'})).passed, false, 'recovered');
	t.equal(buildReport(input(all, {admission: {admitted: false, differences: ['plan digest']}})).passed, false, 'not admitted');
	t.equal(buildReport(input(all, {problems: ['export failed']})).passed, false, 'a problem');
	t.equal(buildReport(input([...all, failedResult(1, 'b', {reason: 'grader', message: 'x'})])).passed, false, 'a failed task');
});

t.test('a report is parsed on the way out: an entry that breaks the schema is refused', async t => {
	const broken = {...passed(0, 'a', 1, 10), wall_ms: -1};
	t.throws(() => buildReport(input([broken])));
});

t.test('report.json is written once: a second report is refused and the first stays as it was', async t => {
	const dir = await tempDir(t);
	const first = buildReport(input([passed(0, 'a', 1, 10)]));
	await writeReport(dir, first);
	const bytes = await readFile(join(dir, 'report.json'), 'utf8');
	t.same(Report.parse(JSON.parse(bytes)), first);
	await t.rejects(writeReport(dir, buildReport(input([failedResult(0, 'a', {reason: 'unfinished', message: 'x'})], {completion: 'recovered'}))), {code: 'EEXIST'});
	t.equal(await readFile(join(dir, 'report.json'), 'utf8'), bytes);
	t.same(await readdir(dir), ['report.json'], 'no temporary file is left behind');
});

t.test('report.json of 10,000 tasks, written entry by entry, holds the bytes writeJson wrote', async t => {
	const dir = await tempDir(t);
	const results = Array.from({length: 10_000}, (_, index) => index % 9 === 0 ? failedResult(index, `t${index}`, {reason: 'grader', message: `line one\nline "two" of ${index}`}) : passed(index, `t${index}`, index % 4, index % 3 === 0 ? null : index));
	const report = buildReport(input(results, {leaks: {backend: 'cgroup', limits: 'everything', leaked: [], survivors: []}, hostWall: {attempt_wall_ms: 5, task_sum_ms: null}}));
	await writeReport(dir, report);
	const written = await readFile(join(dir, 'report.json'));
	t.ok(written.equals(Buffer.from(jsonText(report))), `${written.length} bytes, equal to writeJson's text of the same report`);
	t.same(await readdir(dir), ['report.json'], 'no temporary file is left behind');
});

/** The report as it was built before entries were checked one by one: the whole parsed at once, every entry a copy. */
function parsedWhole(report: Report, results: unknown[]): Report {
	return Report.parse({...report, tasks: results});
}

t.test('entries already in the schema\'s form are the run\'s own objects, not a second copy; the report is the same', async t => {
	const results = Array.from({length: 50}, (_, index) => TaskResult.parse(index % 5 === 0 ? failedResult(index, `t${index}`, {reason: 'timeout', message: 'deadline'}) : passed(index, `t${index}`, 1, 10)));
	const report = buildReport(input(results));
	t.ok(report.tasks.every((task, index) => task === results[index]), 'every entry is the run\'s object');
	t.not(report.tasks, results, 'in an array of the report\'s own');
	t.equal(jsonText(report), jsonText(parsedWhole(report, results)), 'the same text as the report parsed whole');
});

t.test('an entry the schema reads otherwise (a key it drops, keys in another order) is the schema\'s reading: report.json is as before', async t => {
	const {status, index, ...rest} = TaskResult.parse(passed(1, 'b', 1, 10));
	const extra = {...TaskResult.parse(passed(0, 'a', 1, 10)), smuggled: 'not in the schema'};
	const reordered = {...rest, status, index} as TaskResult;
	const inForm = TaskResult.parse(passed(3, 'd', 1, 10));
	const deeper = {...inForm, grade: {details: inForm.grade!.details, score: inForm.grade!.score, passed: inForm.grade!.passed}} as TaskResult;
	const results = [extra, reordered, TaskResult.parse(passed(2, 'c', 1, 10)), deeper];
	const report = buildReport(input(results));
	t.not(report.tasks[0], extra, 'the extra key\'s entry is a copy');
	t.notOk('smuggled' in report.tasks[0]!, 'without the key the schema drops');
	t.not(report.tasks[1], reordered, 'the reordered entry is a copy');
	t.same(Object.keys(report.tasks[1]!), Object.keys(report.tasks[2]!), 'in the schema\'s order');
	t.equal(report.tasks[1]!.outcome, reordered.outcome, 'whose parts that read the same are the run\'s own (a run\'s result differs from the schema\'s order at its top only)');
	t.equal(report.tasks[0]!.grade, extra.grade);
	t.same(Object.keys(report.tasks[3]!.grade!), ['passed', 'score', 'details'], 'a part in another order deeper down is read in the schema\'s order');
	t.equal(report.tasks[3]!.outcome, deeper.outcome, 'beside the parts kept');
	t.equal(report.tasks[2], results[2], 'the entry in form is kept');
	const dir = await tempDir(t);
	await writeReport(dir, report);
	t.equal(await readFile(join(dir, 'report.json'), 'utf8'), jsonText(parsedWhole(report, results)), 'report.json holds the text of the report parsed whole');
});

t.test('the leak audit is carried as given; leaks alone do not fail the attempt, and the summary names them', async t => {
	const leaked = {pid: 4242, argv: ['sleep', '300'], comm: 'sleep', found: 'attempt-cgroup' as const, ended: 'cgroup-kill' as const, task_index: 0};
	const leaks = {backend: 'cgroup' as const, limits: 'everything', leaked: [leaked], survivors: []};
	const report = buildReport(input([passed(0, 'a', 3, 300)], {leaks}));
	t.same(report.leak_audit, leaks);
	t.equal(report.passed, true);
	t.match(reportSummary('/tmp/x', report), /^ {2}leaks: ended 1 process\(es\) that outlived their task \[cgroup\]: 4242 \(sleep\)$/m);
	t.notMatch(reportSummary('/tmp/x', buildReport(input([passed(0, 'a', 3, 300)], {leaks: {...leaks, leaked: []}}))), /leaks:/);
	t.equal(buildReport(input([passed(0, 'a', 3, 300)])).leak_audit, null, 'nobody looked: null, not an empty audit');
});

t.test('the placement is recorded beside the timing: a queued report names its queue, an older report without it reads as local', async t => {
	const results = [passed(0, 'a', 3, 300)];
	const queue = {name: 'hlab-attempt-1', redis: 'redis://127.0.0.1:6379'};
	const queued = buildReport(input(results, {placement: 'queue', queue}));
	t.match(queued, {placement: 'queue', queue, timing: 'in-process'});
	t.match(reportSummary('/evidence', queued).split('\n')[0], /^baseline attempt finished \(queue hlab-attempt-1 on redis:\/\/127\.0\.0\.1:6379, in-process\): 1\/1 passed$/);
	const local = buildReport(input(results));
	t.equal(local.placement, 'local');
	t.notOk('queue' in local, 'a local report has no queue key');
	t.match(reportSummary('/evidence', local).split('\n')[0], /^baseline attempt finished \(in-process\): 1\/1 passed$/);
	const {placement: _placement, ...older} = local;
	const read = Report.parse(JSON.parse(JSON.stringify(older)));
	t.equal(read.placement, undefined, 'a report from before placements parses');
	t.match(reportSummary('/evidence', read).split('\n')[0], /\(in-process\)/, 'and is summarized as local');
});

t.test('the integrity label is in the report and its summary, every reason named; an older report reads as trusted-code', async t => {
	const results = [passed(0, 'a', 3, 300)];
	const contained = buildReport(input(results, {integrity: {label: 'contained', reasons: []}}));
	t.same(contained.integrity, {label: 'contained', reasons: []});
	t.match(reportSummary('/evidence', contained), /^ {2}integrity: contained$/m);
	const trusted = buildReport(input(results, {integrity: {label: 'trusted-code', reasons: ['no-sandbox', 'in-process-candidate']}}));
	t.match(reportSummary('/evidence', trusted), /^ {2}integrity: trusted-code \(no --sandbox: .*; in-process candidate code runs in the supervisor's threads\)$/m);
	const {integrity: _integrity, ...older} = contained;
	const read = Report.parse(JSON.parse(JSON.stringify(older)));
	t.same(read.integrity, {label: 'trusted-code', reasons: ['recorded-before-integrity-labels']}, 'a report from before the labels is never read as contained');
	t.match(reportSummary('/evidence', read), /integrity: trusted-code \(recorded before integrity labels\)/);
	t.throws(() => Report.parse({...contained, integrity: {label: 'contained', reasons: ['no-sandbox']}}), 'contained with a reason is no report');
	t.throws(() => Report.parse({...contained, integrity: {label: 'trusted-code', reasons: []}}), 'nor trusted-code without one');
});

t.test('a graded failure prints the grader\'s checks as indented lines, not glued onto the task\'s line', async t => {
	const failing = {...passed(0, 'a', 3, 300), status: 'failed' as const, grade: {passed: false, score: 0.5, details: 'pass: report.md exists\nFAIL: total matches (got 12, want 14)'}, message: 'the independent grader did not pass the workspace: pass: report.md exists\nFAIL: total matches (got 12, want 14)'};
	const lines = reportSummary('dir', buildReport(input([failing]))).split('\n');
	const at = lines.findIndex(line => line.startsWith('  a: failed'));
	t.same(lines.slice(at, at + 3), [
		'  a: failed (graded): the independent grader did not pass the workspace',
		'      pass: report.md exists',
		'      FAIL: total matches (got 12, want 14)',
	]);
});

t.test('tasks an interruption kept from starting are one summary line naming them, not one identical line each', async t => {
	const unfinished = (index: number): TaskResult => failedResult(index, `t${index}`, {reason: 'unfinished', message: 'the attempt was interrupted before this task started'});
	const results = [passed(0, 'a', 1, 10), ...[1, 2, 3, 4, 5, 6, 7].map(unfinished), failedResult(8, 'z', {reason: 'timeout', message: 'deadline'})];
	const failures = reportSummary('dir', buildReport(input(results, {completion: 'interrupted'}))).split('\n').filter(line => / failed \(/.test(line));
	t.same(failures, [
		'  7 tasks (t1, t2, t3, t4, t5 and 2 more): failed (unfinished) the attempt was interrupted before this task started',
		'  z: failed (timeout) deadline',
	]);
});

t.test('a host\'s claim is listed where it contradicts the metering, not where it names no count or the count is an estimate', async t => {
	const claimed = (result: TaskResult, claim: Partial<NonNullable<TaskResult['usage']>>, metered: Partial<NonNullable<TaskResult['usage']>> = {}): TaskResult =>
		({...result, usage: {...result.usage!, ...metered}, usage_claim: {...result.usage!, ...claim}});
	const results = [
		claimed(passed(0, 'honest', 2, 300), {}),
		claimed(passed(1, 'fewer-tokens', 2, 300), {total_tokens: 30}),
		claimed(passed(2, 'fewer-turns', 2, 300), {turns: 1}),
		claimed(passed(3, 'tokens-unknown', 2, 300), {total_tokens: null}),
		claimed(passed(4, 'estimated', 2, 300), {total_tokens: 280}, {token_source: 'estimated'}),
		claimed(passed(5, 'counted', 2, 300), {total_tokens: 280}, {token_source: 'provider'}),
		claimed(passed(6, 'no-turns-but-estimated', 2, 300), {turns: 0, total_tokens: null}, {token_source: 'estimated'}),
	];
	const measure = buildReport(input(results, {hostWall: {attempt_wall_ms: 5, task_sum_ms: 5}})).host_measure!;
	t.same(measure.usage_differences.map(row => row.task_id), ['fewer-tokens', 'fewer-turns', 'counted', 'no-turns-but-estimated']);
	t.same(measure.usage_differences[0], {task_id: 'fewer-tokens', metered: {turns: 2, total_tokens: 300}, claimed: {turns: 2, total_tokens: 30}});
	t.equal(measure.claimed.total_tokens, null, 'a claim that names no tokens leaves the claimed total unknown');
});
