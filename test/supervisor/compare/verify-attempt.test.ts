import {cp, mkdtemp, readFile, rm, unlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../../files/install-root.js';
import {compareReports} from '../../../supervisor/compare/compare-reports.js';
import {verifyAttempt} from '../../../supervisor/compare/verify-attempt.js';
import {attemptByCli, freeze} from '../../e2e/experiment-fixture.js';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';

checkNoLeaks(t);

// This file's key store: a scratch folder (the attempts' children inherit it), so no key is left behind.
const root = await mkdtemp(join(tmpdir(), 'hlab-verify-'));
process.env.HLAB_STATE_DIR = join(root, 'state');
t.teardown(() => rm(root, {recursive: true, force: true}));

const plan = await freeze({dir: root, tasks: 'answer_from_prompt,implement_function', policy: {concurrency: 1}});
const baseline = await attemptByCli(plan, join(root, 'baseline'));
const candidate = await attemptByCli(plan, join(root, 'candidate'), join(installRoot, 'examples', 'candidates', 'step-budget.ts'));
let copies = 0;

/** A copy of the candidate's evidence to tamper with (its key is found by its attempt id, so the copy verifies as the original). */
async function copyOfCandidate(): Promise<string> {
	const dir = join(root, `copy-${copies += 1}`);
	await cp(candidate.dir, dir, {recursive: true});
	return dir;
}

async function ledgerLines(dir: string): Promise<string[]> {
	return (await readFile(join(dir, 'ledger.jsonl'), 'utf8')).trim().split('\n');
}

async function editJson(path: string, edit: (value: any) => void): Promise<void> {
	const value = JSON.parse(await readFile(path, 'utf8'));
	edit(value);
	await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

t.test('a clean attempt verifies: plan, seal, ledger and report all hold, exit 0', async t => {
	const verify = await hlab(['verify', candidate.dir]);
	t.equal(verify.record.exit_code, 0, verify.stdout + verify.stderr);
	t.same(verify.stdout.split('\n').filter(line => line.startsWith('ok')).map(line => line.split(':')[0]), ['ok    plan', 'ok    seal', 'ok    ledger', 'ok    report']);
	t.notMatch(verify.stdout, /FAIL/);
	const decision = await compareReports(join(baseline.dir, 'report.json'), join(candidate.dir, 'report.json'));
	t.equal(decision.baseline.seal, 'sealed');
	t.ok(decision.checks.some(check => check.rule === 'verification' && check.satisfied), 'both sides verify');
});

t.test('a report.json edited by hand (smaller usage, sums made to agree) is rejected, naming the entry and the field', async t => {
	const dir = await copyOfCandidate();
	await editJson(join(dir, 'report.json'), report => {
		report.tasks[1].usage.total_tokens -= 100;
		report.tasks[1].wall_ms = 1;
		report.totals.total_tokens -= 100;
		report.totals.wall_ms = report.tasks[0].wall_ms + 1;
	});
	const decision = await compareReports(join(baseline.dir, 'report.json'), join(dir, 'report.json'));
	t.equal(decision.decision, 'reject');
	const failed = decision.checks.filter(check => check.rule === 'verification' && !check.satisfied).map(check => check.message);
	t.ok(failed.some(message => /^candidate: report: entry implement_function: field usage: report.json says .* the sealed ledger/.test(message)), failed.join('\n'));
	t.ok(failed.some(message => /^candidate: report: entry implement_function: field wall_ms: report.json says 1, the sealed ledger/.test(message)));
	const verify = await hlab(['verify', dir]);
	t.equal(verify.record.exit_code, 1);
	t.match(verify.stdout, /FAIL {2}report: entry implement_function: field usage/);
	t.match(verify.stdout, /ok {4}ledger/, 'the ledger itself still holds');
});

t.test('the verdict of an entry edited in report.json is named by its status and reason', async t => {
	const dir = await copyOfCandidate();
	await editJson(join(dir, 'report.json'), report => {
		report.tasks[0].status = 'failed';
		report.tasks[0].reason = 'timeout';
		report.totals.passed -= 1;
		report.totals.failed += 1;
		report.passed = false;
	});
	const verification = await verifyAttempt(dir);
	t.equal(verification.holds, false);
	t.ok(verification.checks.some(check => !check.holds && /^entry answer_from_prompt: field status: report.json says "failed", the sealed ledger "passed"$/.test(check.message)));
	t.ok(verification.checks.some(check => !check.holds && /^entry answer_from_prompt: field reason/.test(check.message)));
});

t.test('a tampered result.json is named by the record that sealed it', async t => {
	const dir = await copyOfCandidate();
	await editJson(join(dir, 'tasks', '002-implement_function', 'result.json'), result => {
		result.usage.total_tokens = 1;
	});
	const verify = await hlab(['verify', dir]);
	t.equal(verify.record.exit_code, 1);
	t.match(verify.stdout, /FAIL {2}ledger: ledger line 2 \(entry implement_function\): tasks\/002-implement_function\/result.json changed since it was sealed/);
});

t.test('a torn last ledger line (a crash while it was written) is torn, not a break: the records before it still hold', async t => {
	const dir = await copyOfCandidate();
	const lines = await ledgerLines(dir);
	// The ledger is read as a stream, one line behind: only the last line may be torn.
	await writeFile(join(dir, 'ledger.jsonl'), `${lines[0]}\n${lines[1]!.slice(0, 40)}`);
	const verify = await hlab(['verify', dir]);
	t.match(verify.stdout, /ok {4}ledger: 1 record\(s\), one per entry, every MAC verifies over the one before it and every sealed file is unchanged; line 2 is torn/);
	t.match(verify.stdout, /FAIL {2}report: entry implement_function: field status/, 'the torn entry is not vouched for');
	// The same torn line in the middle is no record at all: the chain breaks there.
	await writeFile(join(dir, 'ledger.jsonl'), `${lines[1]!.slice(0, 40)}\n${lines[0]}\n`);
	const middle = await hlab(['verify', dir]);
	t.match(middle.stdout, /FAIL {2}ledger: ledger line 1: not a ledger record: the chain breaks here/);
	t.match(middle.stdout, /ledger line 2 \(entry answer_from_prompt\): after a broken link of the chain, not trusted/);
});

t.test('a cited evidence file that is gone is named by the seal and by compare', async t => {
	const dir = await copyOfCandidate();
	await unlink(join(dir, 'tasks', '002-implement_function', 'messages.jsonl'));
	const decision = await compareReports(join(baseline.dir, 'report.json'), join(dir, 'report.json'));
	const failed = decision.checks.filter(check => !check.satisfied).map(check => check.message);
	t.ok(failed.some(message => message === 'candidate: task implement_function cites messages evidence tasks/002-implement_function/messages.jsonl, which is missing'), failed.join('\n'));
	t.ok(failed.some(message => /ledger line 2 \(entry implement_function\): tasks\/002-implement_function\/messages.jsonl is missing/.test(message)), 'the sealed file is missing too');
});

t.test('a deleted ledger line breaks the chain at the line after it', async t => {
	const dir = await copyOfCandidate();
	await writeFile(join(dir, 'ledger.jsonl'), `${(await ledgerLines(dir)).slice(1).join('\n')}\n`);
	const verify = await hlab(['verify', dir]);
	t.equal(verify.record.exit_code, 1);
	t.match(verify.stdout, /FAIL {2}ledger: ledger line 1 \(entry implement_function\): its MAC does not verify over the record before it/);
	t.match(verify.stdout, /FAIL {2}report: entry answer_from_prompt: field status: report.json says passed, but the sealed ledger holds no record of it/);
});

t.test('reordered ledger lines break the chain at the first, and nothing after it is trusted', async t => {
	const dir = await copyOfCandidate();
	const [first, second] = await ledgerLines(dir);
	await writeFile(join(dir, 'ledger.jsonl'), `${second}\n${first}\n`);
	const verify = await hlab(['verify', dir]);
	t.equal(verify.record.exit_code, 1);
	t.match(verify.stdout, /FAIL {2}ledger: ledger line 1 \(entry implement_function\): its MAC does not verify/);
	t.match(verify.stdout, /FAIL {2}ledger: ledger line 2 \(entry answer_from_prompt\): after a broken link of the chain, not trusted/);
});

t.test('seals stripped from a ledger whose key is kept are named; a truly old ledger reads as unsealed', async t => {
	const stripped = await copyOfCandidate();
	const lines = (await ledgerLines(stripped)).map(line => {
		const {seal: _seal, ...rest} = JSON.parse(line);
		return JSON.stringify(rest);
	});
	await writeFile(join(stripped, 'ledger.jsonl'), `${lines.join('\n')}\n`);
	await editJson(join(stripped, 'attempt.json'), attempt => {
		delete attempt.seal;
	});
	const verification = await verifyAttempt(stripped);
	t.ok(verification.checks.some(check => check.check === 'ledger' && /ledger line 1 \(entry answer_from_prompt\): an unsealed record in a sealed ledger/.test(check.message)), 'the key store still holds its key');

	// An attempt from before the seal: no seal in attempt.json, none on its records, no key; it is read, and called unsealed.
	const old = await copyOfCandidate();
	await cp(join(stripped, 'ledger.jsonl'), join(old, 'ledger.jsonl'));
	await cp(join(stripped, 'attempt.json'), join(old, 'attempt.json'));
	const attemptId = JSON.parse(await readFile(join(old, 'attempt.json'), 'utf8')).attempt_id;
	const key = join(process.env.HLAB_STATE_DIR!, 'keys', `${attemptId}.key`);
	const kept = await readFile(key);
	await unlink(key);
	t.teardown(() => writeFile(key, kept, {mode: 0o600}));
	const verify = await hlab(['verify', old]);
	t.equal(verify.record.exit_code, 1);
	t.match(verify.stdout, /FAIL {2}seal: unsealed: the ledger was written before the seal/);
	t.match(verify.stdout, /ok {4}report: report.json agrees/, 'its report is still cross-checked against its records');
	const decision = await compareReports(join(baseline.dir, 'report.json'), join(old, 'report.json'));
	t.equal(decision.candidate.seal, 'unsealed');
	t.equal(decision.decision, 'reject');
});

t.test('hlab verify of a folder that is no attempt is bad input', async t => {
	const verify = await hlab(['verify', join(root, 'nothing-here')]);
	t.equal(verify.record.exit_code, 2);
	t.match(verify.stderr, /^hlab: .* is not an attempt's evidence directory/);
});
