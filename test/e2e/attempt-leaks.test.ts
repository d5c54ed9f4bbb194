import {randomInt} from 'node:crypto';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {runInGroup} from '../../process/index.js';
import {readArgv, readTable} from '../../process/proc-table.js';
import {cgroupBase} from '../../process/cgroup/cgroup-base.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {compareReports} from '../../supervisor/compare/compare-reports.js';
import {checkNoLeaks} from '../leak-check.js';
import {evalEntry} from './install-copy.js';
import {freeze, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

/** A step policy that, on every step, starts a daemon that clears its environment and leaves its parent and group. */
function spawningCandidate(tag: string): string {
	return `import {spawn} from 'node:child_process';
export default {
	initialize: () => ({protocol_version: 1, id: 'spawns-daemons', capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}]}),
	invokeCapability() {
		spawn('/usr/bin/setsid', ['/usr/bin/sleep', '${tag}'], {detached: true, stdio: 'ignore', env: {}}).unref();
		return {output: {stop: false}};
	},
};
`;
}

/** Live processes whose argv carries the tag: what the candidate left behind. */
function tagged(tag: string): number[] {
	return readTable().filter(stat => readArgv(stat.pid)?.includes(tag)).map(stat => stat.pid);
}

interface Side {
	report: Report;
	reportPath: string;
}

/** Runs one side as `hlab eval` would; the test's own supervision must not catch what the attempt missed (no cgroup, no ancestry poll). */
async function runSide(t: Test, plan: string, artifacts: string, candidate: string | null, env: Record<string, string>): Promise<Side> {
	const run = await runInGroup({
		argv: [process.execPath, evalEntry(), 'eval', '--plan', plan, '--artifacts', artifacts, '--json', ...(candidate === null ? [] : ['--candidate', candidate])],
		env, deadlineMs: 180_000, containment: 'proc', trackDescendants: false,
	});
	t.ok(run.record.exit_code === 0 || run.record.exit_code === 1, `hlab eval ran: ${run.stderr?.toString() ?? ''}`);
	const reportPath = join(artifacts, 'report.json');
	return {report: Report.parse(JSON.parse(await readFile(reportPath, 'utf8'))), reportPath};
}

interface Experiment {
	dir: string;
	plan: string;
	candidate: string;
	/** A duration no sleep would pick by itself, so only the candidate's daemons match. */
	tag: string;
}

async function experiment(t: Test, concurrency = 1): Promise<Experiment> {
	const dir = await scratch(t);
	const tag = `300.${randomInt(1e8, 1e9)}`;
	const candidate = join(dir, 'spawns-daemons.ts');
	await writeFile(candidate, spawningCandidate(tag));
	const plan = await freeze({dir, tasks: 'answer_from_prompt,implement_function', policy: {concurrency}});
	return {dir, plan, candidate, tag};
}

t.test('with the cgroup backend, daemons spawned by candidate code in a worker thread are ended and listed', {skip: cgroupBase().ok ? false : 'no cgroup v2 to own here'}, async t => {
	const {dir, plan, candidate, tag} = await experiment(t);
	const baseline = await runSide(t, plan, join(dir, 'baseline'), null, {HLAB_CONTAINMENT: 'cgroup'});
	const {report, reportPath} = await runSide(t, plan, join(dir, 'candidate'), candidate, {HLAB_CONTAINMENT: 'cgroup'});
	t.same(tagged(tag), [], 'the attempt leaves no daemon running');
	t.same(baseline.report.leak_audit?.leaked, [], 'the baseline leaked nothing');
	const audit = report.leak_audit!;
	t.equal(audit.backend, 'cgroup');
	t.same(audit.survivors, []);
	const daemons = audit.leaked.filter(leak => leak.argv?.includes(tag));
	t.ok(daemons.length >= 2, `the report lists the daemons it ended (${daemons.length})`);
	t.ok(daemons.every(leak => leak.found === 'attempt-cgroup' && leak.ended === 'cgroup-kill'));
	for (const task of report.tasks) {
		t.ok((task.leak_audit?.leaked.length ?? 0) > 0, `task ${task.task_id} names what outlived it`);
		t.ok(task.leak_audit!.leaked.every(leak => leak.argv?.includes(tag)), 'and only the candidate\'s daemons');
	}
	const decision = await compareReports(baseline.reportPath, reportPath);
	const line = decision.checks.find(check => check.rule === 'leaks');
	t.equal(line?.satisfied, false, 'the decision names the candidate that leaked where the baseline did not');
	t.match(line?.message, new RegExp(`the candidate leaked where the baseline did not: ${daemons.length} processes`));
	t.equal(decision.decision, 'reject');
});

t.test('with tasks running side by side, no task claims the leaks: they are ended and listed for the attempt', {skip: cgroupBase().ok ? false : 'no cgroup v2 to own here'}, async t => {
	const {dir, plan, candidate, tag} = await experiment(t, 2);
	const {report} = await runSide(t, plan, join(dir, 'candidate'), candidate, {HLAB_CONTAINMENT: 'cgroup'});
	t.same(tagged(tag), [], 'the attempt leaves no daemon running');
	const audit = report.leak_audit!;
	t.same(audit.survivors, []);
	t.ok(audit.leaked.filter(leak => leak.argv?.includes(tag)).length >= 2, 'the daemons are listed');
	// Whichever task ended while the other still ran could not tell its leaks from the other's.
	t.ok(report.tasks.some(task => task.leak_audit === null), 'a task that ended beside another has no audit of its own');
	t.ok(audit.leaked.some(leak => leak.task_index === null), 'some are attributed to no task');
});

t.test('with the /proc backend the same daemons escape, and the report says which backend looked', async t => {
	const {dir, plan, candidate, tag} = await experiment(t);
	const {report} = await runSide(t, plan, join(dir, 'candidate'), candidate, {HLAB_CONTAINMENT: 'proc'});
	const left = tagged(tag);
	// This is what the cgroup test would see without its backend: the test can fail.
	for (const pid of left) process.kill(pid, 'SIGKILL');
	t.ok(left.length >= 2, `the environment-cleared setsid daemons survived the /proc backend (${left.length})`);
	t.equal(report.leak_audit!.backend, 'proc');
	t.match(report.leak_audit!.limits, /escapes/);
	t.same(report.leak_audit!.leaked.filter(leak => leak.argv?.includes(tag)), [], 'it cannot name them either');
});
