import {existsSync} from 'node:fs';
import {readFile, rename, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {runInGroup} from '../../../../process/index.js';
import {recoverAttempt} from '../../../../supervisor/attempt/report/recover.js';
import {Report} from '../../../../supervisor/attempt/report/report-schema.js';
import {writeAttemptLock} from '../../../../supervisor/evidence/attempt-lock.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {tempDir} from '../../../temp-dir.js';
import {attemptByCli, freeze} from '../../../e2e/experiment-fixture.js';

checkNoLeaks(t);

/** Runs an attempt as its own process, takes its report away as a crash would, and recovers it. */
async function runThenRecover(t: Test, planPath: string, dir: string) {
	const {report: ran} = await attemptByCli(planPath, join(dir, 'attempt'));
	await rename(join(dir, 'attempt', 'report.json'), join(dir, 'report-of-the-run.json'));
	const {report: recovered} = await recoverAttempt(join(dir, 'attempt'));
	t.same(Report.parse(JSON.parse(await readFile(join(dir, 'attempt', 'report.json'), 'utf8'))), recovered, 'the recovered report is on disk');
	return {ran, recovered};
}

/** What a run and its recovery must state alike when every task was recorded: the same builders, the same inputs. */
function sameStatements(t: Test, ran: Report, recovered: Report): void {
	t.same(recovered.tasks, ran.tasks, 'every task result is the one the run recorded');
	t.same(recovered.totals, ran.totals, 'the same totals');
	for (const key of ['attempt_id', 'side', 'timing', 'host', 'integrity', 'plan_digest', 'task_ids', 'candidate'] as const) {
		t.same(recovered[key], ran[key], key);
	}
	t.equal(recovered.completion, 'recovered');
	t.equal(recovered.passed, false, 'a recovered attempt never passes');
	t.equal(recovered.attempt_wall_ms, null, 'its wall time is unknown, not 0');
}

t.test('a run and its recovery from the ledger state the same results and totals', async t => {
	const dir = await tempDir(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt,sales_report', policy: {concurrency: 2}});
	const {ran, recovered} = await runThenRecover(t, plan, dir);
	t.equal(ran.passed, true);
	sameStatements(t, ran, recovered);
	t.same(recovered.admission, {admitted: true, differences: []});
});

t.test('a refused attempt and its recovery state the same failed results', async t => {
	const dir = await tempDir(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt,sales_report'});
	const json = JSON.parse(await readFile(plan, 'utf8'));
	json.budgets.max_steps = 50;
	await writeFile(plan, JSON.stringify(json, null, 2));
	const {ran, recovered} = await runThenRecover(t, plan, dir);
	t.ok(ran.tasks.every(task => task.reason === 'admission'));
	sameStatements(t, ran, recovered);
	t.equal(recovered.admission.admitted, false, 'the ledger shows the refusal');
});

t.test('an attempt that ended before attempt.json recovers as trusted-code: nobody recorded what ran', async t => {
	const dir = await tempDir(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt'});
	await attemptByCli(plan, join(dir, 'attempt'));
	await rename(join(dir, 'attempt', 'report.json'), join(dir, 'report-of-the-run.json'));
	await rename(join(dir, 'attempt', 'attempt.json'), join(dir, 'attempt-of-the-run.json'));
	const {report} = await recoverAttempt(join(dir, 'attempt'));
	t.same(report.integrity, {label: 'trusted-code', reasons: ['attempt-record-missing']});
});

t.test('a lock left by a dead supervisor, or by a pid now reused by another process, is recovered; a live holder is refused', async t => {
	const dir = await tempDir(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt'});
	const artifacts = join(dir, 'attempt');
	await attemptByCli(plan, artifacts);
	await rename(join(artifacts, 'report.json'), join(dir, 'report-of-the-run.json'));
	const attempt = JSON.parse(await readFile(join(artifacts, 'attempt.json'), 'utf8'));
	// This test's own process, named exactly: a live supervisor.
	const live = writeAttemptLock(artifacts, {attemptId: attempt.attempt_id, marker: attempt.process_marker});
	await t.rejects(recoverAttempt(artifacts), {reason: 'still_running', message: `the attempt's supervisor (pid ${process.pid}) is still running; stop it before recovering`});
	t.notOk(existsSync(join(artifacts, 'report.json')));
	let exited = 0;
	await runInGroup({argv: ['true'], deadlineMs: 10_000, onSpawn: pid => { exited = pid; }});
	for (const [what, lock] of [['a pid that exited', {...live, pid: exited}], ['this pid, started at another time (reused)', {...live, start_time: live.start_time! + 1}]] as const) {
		await writeFile(join(artifacts, 'lock.json'), JSON.stringify(lock));
		const {report} = await recoverAttempt(artifacts);
		t.equal(report.completion, 'recovered', what);
		t.notOk(existsSync(join(artifacts, 'lock.json')), `${what}: the recovery released the lock`);
		await rm(join(artifacts, 'report.json'));
	}
});

t.test('a process of an attempt killed before attempt.json is ended by the recovery: the lock names the marker', async t => {
	const dir = await tempDir(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt'});
	const artifacts = join(dir, 'attempt');
	await attemptByCli(plan, artifacts);
	await rename(join(artifacts, 'report.json'), join(dir, 'report-of-the-run.json'));
	await rename(join(artifacts, 'attempt.json'), join(dir, 'attempt-of-the-run.json'));
	const marker = `HLAB_ATTEMPT_${process.pid}early`;
	const lock = writeAttemptLock(artifacts, {attemptId: 'early', marker: `${marker}=1`});
	await writeFile(join(artifacts, 'lock.json'), JSON.stringify({...lock, start_time: lock.start_time! + 1}));
	// Started as the provider is, before attempt.json: only the lock says it belongs to the attempt.
	let pid = 0;
	const survivor = runInGroup({argv: ['sleep', '60'], env: {[marker]: '1'}, deadlineMs: 120_000, onSpawn: spawned => { pid = spawned; }});
	while (pid === 0) await new Promise(resolve => setTimeout(resolve, 10));
	const {killed} = await recoverAttempt(artifacts);
	t.ok(killed.includes(pid), 'the recovery ended it');
	t.equal((await survivor).record.signal, 'SIGKILL');
});
