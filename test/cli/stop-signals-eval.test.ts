import {existsSync} from 'node:fs';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {hlab} from '../hlab.js';
import {interrupted, readReport} from './stop-signals-eval-fixture.js';

checkNoLeaks(t);

t.test('SIGHUP (a closed terminal) stops like SIGTERM: the report is written and the runtime root removed', async t => {
	const run = await interrupted(t, ['SIGHUP']);
	t.equal(run.record.exit_code, 1, run.stderr);
	t.match(run.stderr, /^hlab: SIGHUP: stopping: .*; press Ctrl-C again to stop faster$/m);
	const report = await readReport(run.reportPath);
	t.equal(report.completion, 'interrupted');
	t.match(report.tasks, [{status: 'failed', reason: 'aborted', message: /did not yield within 2000 ms/}], 'the task had the whole grace');
	t.notOk(existsSync(run.root), 'nothing is left on the tmpfs');
});

t.test('a second SIGINT moves to the faster stop, which still writes the report and removes the runtime root', async t => {
	const run = await interrupted(t, ['SIGINT', 'SIGINT']);
	t.equal(run.record.exit_code, 1, run.stderr);
	t.match(run.stderr, /^hlab: SIGINT: stopping: /m);
	t.match(run.stderr, /^hlab: SIGINT again: stopping faster: .*; press Ctrl-C again to stop now$/m);
	const report = await readReport(run.reportPath);
	t.equal(report.completion, 'interrupted');
	t.match(report.tasks, [{status: 'failed', reason: 'aborted', message: /did not yield within 250 ms/}], 'the second signal cut the grace');
	t.notOk(existsSync(run.root), 'nothing is left on the tmpfs');
});

t.test('a third SIGINT exits at once with 130, every process killed; no report, and --recover writes it from what is left', async t => {
	const run = await interrupted(t, ['SIGINT', 'SIGINT', 'SIGINT']);
	t.equal(run.record.exit_code, 130, run.stderr);
	t.ok(run.afterLastMs < 2000, `ended ${Math.round(run.afterLastMs)} ms after the third signal`);
	t.match(run.stderr, /^hlab: SIGINT a third time: stopping now: every process it started was killed; no report\.json; hlab eval --recover DIR writes it/m);
	t.notOk(existsSync(run.reportPath), 'the third signal writes no report');
	t.ok(existsSync(run.root), 'the runtime root stays for --recover');
	const recover = await hlab(['eval', '--recover', run.artifacts, '--json']);
	t.equal(recover.record.exit_code, 1, recover.stderr);
	t.equal((await readReport(run.reportPath)).completion, 'recovered', 'recovery wrote the report');
	t.notOk(existsSync(run.root), 'recovery removed the runtime root');
});
