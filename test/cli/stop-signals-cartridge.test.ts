import {existsSync} from 'node:fs';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {copyCartridge} from '../cartridges/cartridge-copy.js';
import {checkNoLeaks} from '../leak-check.js';
import {readCase, reportResponses} from '../supervisor/cartridge-commands/cartridge-cli.js';
import {tempDir} from '../temp-dir.js';
import {sendSignals, sleeperCount, sleepersOf, stallingTool, startHlab, survivors} from './stop-signals-fixture.js';

checkNoLeaks(t);

/** `hlab cartridge eval` with its one case in flight, its tool's two processes ignoring SIGTERM; then the signals. */
async function interrupted(t: Test, signals: NodeJS.Signals[]) {
	const dir = await tempDir(t, 'hlab-stop-cartridge-');
	const pidFile = join(dir, 'pids');
	const cartridge = await copyCartridge(t, 'report_agent', {'tools/publish_report/execute.ts': stallingTool(pidFile)});
	const out = join(dir, 'runs');
	const run = await startHlab(['cartridge', 'eval', cartridge, '--out', out, '--provider', 'scripted', '--responses', reportResponses]);
	const sleepers = await sleepersOf(t, pidFile, sleeperCount(false));
	const lastSentAt = await sendSignals(run.pid, signals);
	const {record, stderr} = await run.ended;
	const afterLastMs = performance.now() - lastSentAt;
	t.same(await survivors(sleepers), [], 'no process of the case outlives the supervisor');
	return {out, record, stderr: stderr?.toString() ?? '', afterLastMs};
}

t.test('SIGHUP stops like SIGTERM: the case in flight is recorded as interrupted', async t => {
	const run = await interrupted(t, ['SIGHUP']);
	t.equal(run.record.exit_code, 1, run.stderr);
	t.match(run.stderr, /^hlab: SIGHUP: stopping: the case in flight ends and is recorded; press Ctrl-C again to stop faster$/m);
	t.match(run.stderr, /interrupted after 1 of 1 cases/);
	const record = await readCase(run.out, 'profit_math');
	t.same([record.outcome.status, record.outcome.reason], ['failed', 'aborted']);
	t.match(record.outcome.message, /did not yield within 2000 ms/);
});

t.test('a second SIGINT cuts the grace; the case in flight is still recorded', async t => {
	const run = await interrupted(t, ['SIGINT', 'SIGINT']);
	t.equal(run.record.exit_code, 1, run.stderr);
	t.match(run.stderr, /^hlab: SIGINT again: stopping faster: .*; press Ctrl-C again to stop now$/m);
	const record = await readCase(run.out, 'profit_math');
	t.same([record.outcome.status, record.outcome.reason], ['failed', 'aborted']);
	t.match(record.outcome.message, /did not yield within 250 ms/);
});

t.test('a third SIGINT exits at once with 130, every process killed; the case in flight has no record', async t => {
	const run = await interrupted(t, ['SIGINT', 'SIGINT', 'SIGINT']);
	t.equal(run.record.exit_code, 130, run.stderr);
	t.ok(run.afterLastMs < 2000, `ended ${Math.round(run.afterLastMs)} ms after the third signal`);
	t.match(run.stderr, /^hlab: SIGINT a third time: stopping now: every process it started was killed; the case in flight has no record/m);
	t.notOk(existsSync(join(run.out, 'cases', 'profit_math', 'record.json')), 'no record of the case in flight');
	t.notOk(existsSync(join(run.out, 'run.json')));
});
