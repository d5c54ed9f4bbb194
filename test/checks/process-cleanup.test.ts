import t, {type Test} from 'tap';
import {readFile} from 'node:fs/promises';
import path from 'node:path';
import {CleanupCheckResult} from '../../checks/process-cleanup/result-schema.js';
import {cleanupScenarios} from '../../checks/process-cleanup/scenarios.js';
import {cgroupBase} from '../../process/cgroup/cgroup-base.js';
import {checkNoLeaks} from '../leak-check.js';
import {hlab} from '../hlab.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const temp = (t: Test): Promise<string> => tempDir(t, 'hlab-check-');
const escape = 'env_cleared_daemon';

/** Runs the check with a forced backend; returns its exit status, summary and result.json. */
async function runCheck(t: Test, containment: string, extra: string[] = []) {
	// Run from a working directory of the caller's, with a relative --output, as a user would.
	const cwd = await temp(t);
	const out = path.join(cwd, 'check');
	const {record, stdout} = await hlab(['check', 'process-cleanup', '--output', './check', ...extra], {cwd, env: {HLAB_CONTAINMENT: containment}});
	const result = CleanupCheckResult.parse(JSON.parse(await readFile(path.join(out, 'result.json'), 'utf8')));
	return {exitCode: record.exit_code, stdout, result};
}

function assertTruthful(t: Test, result: CleanupCheckResult, stdout: string, containment: string): void {
	t.equal(result.containment, containment);
	t.match(stdout, new RegExp(`^containment backend: ${containment}$`, 'm'), 'the summary names the backend');
	t.match(result.label, /framework verification/);
	t.same(result.scenarios.map(scenario => scenario.name), cleanupScenarios.map(scenario => scenario.name));
	for (const scenario of result.scenarios) t.ok(scenario.started.length > 0, `${scenario.name} started processes`);
}

if (cgroupBase().ok) {
	t.test('cgroup: every scenario passes, the env-cleared setsid daemon included', async t => {
		const {exitCode, stdout, result} = await runCheck(t, 'cgroup');
		t.equal(exitCode, 0, stdout);
		assertTruthful(t, result, stdout, 'cgroup');
		t.equal(result.passed, true);
		for (const scenario of result.scenarios) t.same(scenario.survivors, [], `${scenario.name} left nothing`);
		t.ok(result.scenarios.find(scenario => scenario.name === escape)!.within_backend);
	});
}

for (const containment of ['proc', 'portable']) {
	t.test(`${containment}: the original eight pass; the daemon it cannot catch fails, and the check says why`, async t => {
		const {exitCode, stdout, result} = await runCheck(t, containment);
		assertTruthful(t, result, stdout, containment);
		for (const scenario of result.scenarios.filter(scenario => scenario.name !== escape)) {
			t.ok(scenario.passed, `${scenario.name}: ${scenario.problems.join('; ')}`);
			t.same(scenario.survivors, []);
		}
		const daemon = result.scenarios.find(scenario => scenario.name === escape)!;
		t.equal(daemon.within_backend, false);
		// This is the cgroup test above with its backend disabled: it must fail.
		t.equal(daemon.passed, false, 'the daemon outlived the supervisor');
		t.match(daemon.problems.join('\n'), new RegExp(`the ${containment} backend cannot catch this escape`));
		t.equal(result.passed, false);
		t.equal(exitCode, 1);
		const swept = result.scenarios.find(scenario => scenario.name === 'setsid_grandchild')!;
		t.ok(swept.killed.some(entry => entry.how === 'sweep'), 'the setsid daemon with its marker was found by the sweep');
	});
}

t.test('a broken cleanup (sweep disabled) is reported as a failure by the same check', async t => {
	const containment = cgroupBase().ok ? 'cgroup' : 'proc';
	const {exitCode, result} = await runCheck(t, containment, ['--disable-sweep']);
	t.equal(exitCode, 1);
	t.equal(result.passed, false);
	t.equal(result.sweep_disabled, true);
	const failed = result.scenarios.filter(scenario => !scenario.passed).map(scenario => scenario.name);
	// These two wait until their escaped process runs before the leader exits, so the group signal can never catch it early.
	t.ok(failed.includes('escaped_without_tag') && failed.includes(escape), `failed: ${failed.join(', ')}`);
	for (const name of failed) t.ok(result.scenarios.find(scenario => scenario.name === name)!.survivors.length > 0);
});

t.test('an existing output directory is refused', async t => {
	const dir = await temp(t);
	const {record, stderr} = await hlab(['check', 'process-cleanup', '--output', dir]);
	t.equal(record.exit_code, 2);
	t.match(stderr, /already exists/);
	t.equal(stderr.trim().split('\n').length, 1, 'one line');
});
