import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Report} from '../../../../supervisor/attempt/report/report-schema.js';
import {spinningCartridge} from '../../../cartridges/cartridge-copy.js';
import {hlab} from '../../../hlab.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {tempDir} from '../../../temp-dir.js';
import {reportResponses} from '../../cartridge-commands/cartridge-cli.js';

checkNoLeaks(t);

t.test('an attempt runs a case whose tool never yields in a pool thread, ended at the deadline plus the grace as timeout', async t => {
	const work = await tempDir(t, 'hlab-cartridge-deadline-');
	const plan = join(work, 'plan.json');
	const frozen = await hlab(['eval', '--cartridge', await spinningCartridge(t), '--responses', reportResponses, '--timeout', '3s', '--freeze', plan]);
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	const artifacts = join(work, 'attempt');
	const t0 = performance.now();
	const run = await hlab(['eval', '--plan', plan, '--artifacts', artifacts]);
	const wallMs = performance.now() - t0;
	t.equal(run.record.exit_code, 1, run.stderr);
	// The attempt's own stages come on top of the task: the task's wall time is what the deadline bounds.
	t.ok(wallMs < 90_000, `the attempt ended in ${Math.round(wallMs)} ms`);
	const report = Report.parse(JSON.parse(await readFile(join(artifacts, 'report.json'), 'utf8')));
	t.same(report.tasks.map(task => [task.status, task.reason]), [['failed', 'timeout']], report.tasks[0]?.message ?? '');
	t.match(report.tasks[0]!.message, /did not yield/);
	const taskMs = report.tasks[0]!.wall_ms ?? 0;
	t.ok(taskMs >= 3000 && taskMs < 30_000, `the task ended ${Math.round(taskMs)} ms after it started: the deadline, the grace, and slack`);
});
