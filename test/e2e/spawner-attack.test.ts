import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {ProcessRecord} from '../../process/index.js';
import {isRunning, readStat} from '../../process/proc-table.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {writeSyntheticHost} from '../supervisor/host/synthetic-host.js';
import {freeze, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

t.test('a host that kills the attempt\'s spawner fails its task, the next task gets a new spawner, and the attempt ends with nothing running', async t => {
	const dir = await scratch(t);
	// The attack on the first task: its parent is the spawner; kill it, leave a daemon, then answer truthfully.
	const exe = await writeSyntheticHost(dir, 'parricide-host', `
		if (request.task.id === 'json_config_migration') {
			const daemon = spawn('sleep', ['300'], {detached: true, stdio: 'ignore'});
			daemon.unref();
			writeFileSync(${JSON.stringify(join(dir, 'daemon.pid'))}, String(daemon.pid));
			process.kill(process.ppid, 'SIGKILL');
			await new Promise(resolve => setTimeout(resolve, 300));
		}
		return {version: 1, binary: self, task_id: request.task.id, outcome: done};`);
	const plan = await freeze({dir, tasks: 'json_config_migration,sales_report', policy: {concurrency: 1, acceptance: {require_all_pass: false, improvement: 'non-regression', max_duration_ratio: 1000}}});
	const run = await hlab(['eval', '--plan', plan, '--json', '--candidate-host', exe, '--artifacts', join(dir, 'attempt')], {timeoutMs: 120_000});
	t.ok(run.record.exit_code === 0 || run.record.exit_code === 1, `the attempt finished: ${run.stderr}`);
	const report = Report.parse(JSON.parse(await readFile(join(dir, 'attempt', 'report.json'), 'utf8')));
	const [killer, next] = report.tasks;
	t.equal(killer?.status, 'failed');
	t.equal(killer?.reason, 'crash', 'killing the spawner is a crash of the task, never a pass');
	t.match(killer?.message, /spawner .*killed by SIGKILL while the command ran/);
	const killerProcess = ProcessRecord.parse(JSON.parse(await readFile(join(dir, 'attempt', killer!.evidence.process!), 'utf8')));
	t.equal(killerProcess.failure, 'spawner', 'process.json names the reason');
	t.equal(killer?.outcome, null, 'its answer is not taken');
	const nextProcess = ProcessRecord.parse(JSON.parse(await readFile(join(dir, 'attempt', next!.evidence.process!), 'utf8')));
	t.equal(nextProcess.failure, null, 'the next task ran under a new spawner');
	t.equal(nextProcess.exit_code, 0);
	const daemon = Number(await readFile(join(dir, 'daemon.pid'), 'utf8'));
	t.ok(daemon > 0);
	t.notOk(isRunning(readStat(daemon)), 'the daemon was ended with the spawner\'s trees');
	t.same(report.leak_audit?.survivors, [], 'the final audit finds nothing left');
});
