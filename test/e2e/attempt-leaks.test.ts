import {randomInt} from 'node:crypto';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {runInGroup} from '../../process/index.js';
import {readArgv, readTable} from '../../process/proc-table.js';
import {cgroupBase} from '../../process/cgroup/cgroup-base.js';
import {Report} from '../../supervisor/attempt/report-schema.js';
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

async function runCandidate(t: Test, env: Record<string, string>): Promise<{report: Report; tag: string}> {
	const dir = await scratch(t);
	// A duration no sleep would pick by itself, so only the candidate's daemons match.
	const tag = `300.${randomInt(1e8, 1e9)}`;
	const candidate = join(dir, 'spawns-daemons.ts');
	await writeFile(candidate, spawningCandidate(tag));
	const plan = await freeze({dir, tasks: 'answer_from_prompt,implement_function', policy: {concurrency: 1}});
	const artifacts = join(dir, 'candidate');
	// The test's own supervision must not catch what the attempt missed: no cgroup, no ancestry poll, only the group and marker.
	const run = await runInGroup({
		argv: [process.execPath, evalEntry(), 'eval', '--plan', plan, '--artifacts', artifacts, '--candidate', candidate, '--json'],
		env, timeoutMs: 180_000, containment: 'proc', trackDescendants: false,
	});
	t.ok(run.record.exit_code === 0 || run.record.exit_code === 1, `hlab eval ran: ${run.stderr?.toString() ?? ''}`);
	return {report: Report.parse(JSON.parse(await readFile(join(artifacts, 'report.json'), 'utf8'))), tag};
}

t.test('with the cgroup backend, daemons spawned by candidate code in a worker thread are ended and listed', {skip: cgroupBase().ok ? false : 'no cgroup v2 to own here'}, async t => {
	const {report, tag} = await runCandidate(t, {HLAB_CONTAINMENT: 'cgroup'});
	t.same(tagged(tag), [], 'the attempt leaves no daemon running');
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
});

t.test('with the /proc backend the same daemons escape, and the report says which backend looked', async t => {
	const {report, tag} = await runCandidate(t, {HLAB_CONTAINMENT: 'proc'});
	const left = tagged(tag);
	// This is what the cgroup test would see without its backend: the test can fail.
	for (const pid of left) process.kill(pid, 'SIGKILL');
	t.ok(left.length >= 2, `the environment-cleared setsid daemons survived the /proc backend (${left.length})`);
	t.equal(report.leak_audit!.backend, 'proc');
	t.match(report.leak_audit!.limits, /escapes/);
	t.same(report.leak_audit!.leaked.filter(leak => leak.argv?.includes(tag)), [], 'it cannot name them either');
});
