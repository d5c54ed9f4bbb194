import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {hlab} from '../../hlab.js';
import {launchBrowser, openPage} from '../report/browser.js';
import {checkNoLeaks} from '../../leak-check.js';
import {editLedgerLine, entries, heldAttempt, readReport} from './resume-fixture.js';

checkNoLeaks(t);

const attemptIdOf = async (dir: string): Promise<string> => (JSON.parse(await readFile(join(dir, 'attempt.json'), 'utf8')) as {attempt_id: string}).attempt_id;

t.test('an attempt killed with SIGKILL mid-task is refused while live, then resumed: its sealed records taken, the rest run, every entry once', async t => {
	const held = await heldAttempt(t);
	const live = await hlab(['eval', '--resume', held.first]);
	t.equal(live.record.exit_code, 2, 'a live attempt is not resumed');
	t.match(live.stderr, /^hlab: the attempt's supervisor \(pid \d+\) is still running in .*; stop it \(or wait for it\) before resuming$/m);
	process.kill(held.run.pid, 'SIGKILL');
	await held.run.ended;
	const firstId = await attemptIdOf(held.first);
	const second = join(held.dir, 'second');
	// No candidate flag: the resumed attempt runs what the first one ran, as the same side.
	const resumed = await hlab(['eval', '--resume', held.first, '--artifacts', second]);
	t.equal(resumed.record.exit_code, 1, `sales_report's failure stands, so the attempt does not pass: ${resumed.stderr}`);
	t.match(resumed.stderr, /ended without a report: recovered first/);
	t.match(resumed.stderr, /resuming .*first: 2 of 4 entries taken from its sealed ledger, 2 to run/);
	t.equal((await readReport(held.first)).completion, 'recovered', 'the first attempt was closed with its own report');
	const report = await readReport(second);
	t.equal(report.completion, 'finished');
	t.equal(report.side, 'candidate');
	t.same(report.task_ids, entries);
	t.same(report.tasks.map(task => [task.index, task.task_id]), entries.map((id, index) => [index, id]), 'the denominator, every entry once, in frozen order');
	t.same(report.tasks.map(task => task.resumed_from ?? null), [firstId, firstId, null, null], 'the first two came from the first attempt, the rest ran here');
	t.same(report.tasks.map(task => task.status), ['passed', 'failed', 'passed', 'passed'], 'the carried failure is kept, never rerun for a better draw');
	t.same(report.resumed_from, [{attempt_id: firstId, dir: held.first, entries: entries.slice(0, 2)}]);
	t.match(resumed.stdout, /resumed: 2 of 4 entries taken from attempt /);
	const verify = await hlab(['verify', second]);
	t.equal(verify.record.exit_code, 0, `the resumed attempt verifies on its own: ${verify.stdout}${verify.stderr}`);
	const baseline = await hlab(['eval', '--plan', held.plan, '--artifacts', join(held.dir, 'baseline'), '--json']);
	t.equal(baseline.record.exit_code, 0, baseline.stderr);
	const compare = await hlab(['eval', '--compare', `${join(held.dir, 'baseline')}/report.json,${second}/report.json`, '--json']);
	const verification = (JSON.parse(compare.stdout) as {checks: {rule: string; satisfied: boolean; message: string}[]}).checks.find(check => check.rule === 'verification');
	t.equal(verification?.satisfied, true, `a comparison takes the resumed attempt as it takes any other: ${verification?.message}`);
	const page = await hlab(['report', second]);
	t.equal(page.record.exit_code, 0, page.stderr);
	const browser = await launchBrowser(t);
	const {page: view, watch} = await openPage(browser, join(second, 'report.html'));
	t.match(await view.textContent('#sides'), `resumed2 of 4 entries taken from attempt ${firstId} (${held.first}): answer_from_prompt, sales_report`, 'the page says where the records came from');
	t.same(watch.errors, []);
	const again = await hlab(['eval', '--resume', second]);
	t.equal(again.record.exit_code, 2, 'a finished attempt has nothing to resume');
	t.match(again.stderr, /^hlab: .*second finished \(3\/4 passed\): there is nothing to resume; its report\.json stands$/m);
});

t.test('an attempt stopped with SIGTERM is resumed; a record flipped from failed to passed in its ledger is rerun, never trusted', async t => {
	const held = await heldAttempt(t);
	process.kill(held.run.pid, 'SIGTERM');
	const stopped = await held.run.ended;
	t.equal(stopped.record.exit_code, 1);
	const first = await readReport(held.first);
	t.equal(first.completion, 'interrupted');
	t.same(first.tasks.map(task => task.reason), [null, first.tasks[1]!.reason, 'aborted', 'unfinished']);
	t.equal(first.tasks[1]!.status, 'failed');
	// The attack: sales_report's record (and its result.json) now say it passed.
	await editLedgerLine(held.first, 'sales_report', record => Object.assign(record.result, {status: 'passed', reason: null, grade: {passed: true, score: 1, details: 'pass'}}));
	const resultFile = join(held.first, first.tasks[1]!.evidence['result']!);
	const result = JSON.parse(await readFile(resultFile, 'utf8')) as Record<string, unknown>;
	await writeFile(resultFile, JSON.stringify({...result, status: 'passed', reason: null, grade: {passed: true, score: 1, details: 'pass'}}, null, 2));
	const second = join(held.dir, 'second');
	const resumed = await hlab(['eval', '--resume', held.first, '--artifacts', second, '--candidate', held.candidate]);
	t.equal(resumed.record.exit_code, 1, resumed.stderr);
	t.match(resumed.stderr, /^hlab: sales_report is rerun: its record cannot be trusted: ledger line 2 \(entry sales_report\): its MAC does not verify/m);
	t.match(resumed.stderr, /resuming .*first: 1 of 4 entries taken from its sealed ledger, 3 to run/);
	const report = await readReport(second);
	const sales = report.tasks[1]!;
	t.equal(sales.resumed_from, undefined, 'the forged record was not taken');
	t.equal(sales.status, 'failed', 'rerun, the candidate fails it again');
	t.same(report.tasks.map(task => task.resumed_from === undefined ? 'here' : 'taken'), ['taken', 'here', 'here', 'here'], 'the interrupted and unstarted entries ran here too');
	t.same(report.resumed_from?.map(source => source.entries), [['answer_from_prompt']]);
});

t.test('a resume with another candidate than the attempt ran takes none of its records and says so', async t => {
	const held = await heldAttempt(t);
	process.kill(held.run.pid, 'SIGKILL');
	await held.run.ended;
	const other = join(held.dir, 'other.ts');
	await writeFile(other, (await readFile(held.candidate, 'utf8')).replace("id: 'resume-probe'", "id: 'another'"));
	const resumed = await hlab(['eval', '--resume', held.first, '--artifacts', join(held.dir, 'second'), '--candidate', other]);
	t.equal(resumed.record.exit_code, 1, resumed.stderr);
	t.match(resumed.stderr, /^hlab: .*first ran another candidate: none of its records is taken; every entry runs$/m);
	t.notMatch(resumed.stderr, /entries taken/, 'nothing is said to be taken');
	const report = await readReport(join(held.dir, 'second'));
	t.same(report.tasks.map(task => task.resumed_from ?? null), [null, null, null, null]);
	t.equal(report.resumed_from, undefined);
	const baseline = await hlab(['eval', '--resume', held.first, '--side', 'baseline']);
	t.equal(baseline.record.exit_code, 2, 'the other side is refused');
	t.match(baseline.stderr, /is the candidate side; a resume runs the same side \(got baseline\)/);
	// What attempt.json says ran decides what may be resumed: a host side's duration cannot span two supervisors.
	const record = JSON.parse(await readFile(join(held.first, 'attempt.json'), 'utf8')) as Record<string, unknown>;
	await writeFile(join(held.first, 'attempt.json'), JSON.stringify({...record, candidate: null, host: {launched: other, path: other, kind: 'file', digest: `sha256:${'0'.repeat(64)}`}}));
	const host = await hlab(['eval', '--resume', held.first, '--artifacts', join(held.dir, 'third')]);
	t.equal(host.record.exit_code, 2, host.stderr);
	t.match(host.stderr, /ran a host candidate, whose whole-attempt wall time is measured on one supervisor's clock: it cannot be resumed yet/);
	t.notOk(existsSync(join(held.dir, 'third')), 'nothing was started');
});
