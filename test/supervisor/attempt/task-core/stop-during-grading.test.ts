import {mkdir, readdir} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {readReport, shmOnly} from '../../../cli/stop-signals-eval-fixture.js';
import {startHlab} from '../../../cli/stop-signals-fixture.js';
import {freeze, scratch} from '../../../e2e/experiment-fixture.js';
import {checkNoLeaks} from '../../../leak-check.js';

checkNoLeaks(t);

t.test('a stop that lands while the task is graded fails it as aborted, not as a broken grader', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'test_failure_fix', policy: {concurrency: 1}});
	// The grader's scratch copy appears in TMPDIR while it runs the workspace's tests: the instant to stop at.
	const tmp = join(dir, 'tmp');
	await mkdir(tmp);
	const artifacts = join(dir, 'attempt');
	const run = await startHlab(['eval', '--plan', plan, '--artifacts', artifacts, '--json'], {...shmOnly(dir), TMPDIR: tmp});
	const grading = async (): Promise<boolean> => (await readdir(tmp)).some(name => name.startsWith('hlab-grade-'));
	let seen = false;
	for (const started = performance.now(); !seen && performance.now() - started < 90_000; await sleep(10)) seen = await grading();
	t.ok(seen, 'the grader started');
	process.kill(run.pid, 'SIGTERM');
	const {record, stderr} = await run.ended;
	t.equal(record.exit_code, 1, stderr?.toString() ?? '');
	const report = await readReport(join(artifacts, 'report.json'));
	t.equal(report.completion, 'interrupted');
	t.match(report.tasks, [{status: 'failed', reason: 'aborted', message: /interrupted while the task was graded/}]);
});
