import {access, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {computePlanDigest} from '../../../supervisor/plan/plan-digest.js';
import {hlabVersion} from '../../../supervisor/plan/hlab-version.js';
import {checkNoLeaks} from '../../leak-check.js';
import {hlab} from '../../hlab.js';
import {freeze, scratch} from '../../e2e/experiment-fixture.js';

checkNoLeaks(t);

/** Freezes a one-task plan, lets `edit` change its JSON, writes it back and runs `hlab eval --plan` on it. */
async function runEdited(t: Test, edit: (plan: Record<string, unknown>) => void): Promise<{status: number | null; stderr: string; artifacts: string}> {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt'});
	const json = JSON.parse(await readFile(plan, 'utf8')) as Record<string, unknown>;
	edit(json);
	await writeFile(plan, JSON.stringify(json, null, 2));
	const artifacts = join(dir, 'attempt');
	const run = await hlab(['eval', '--plan', plan, '--artifacts', artifacts]);
	return {status: run.record.exit_code, stderr: run.stderr, artifacts};
}

const absent = (path: string) => access(path).then(() => false, () => true);

t.test('an unknown top-level field is refused by name, not dropped (it would not be covered by the digest)', async t => {
	// The attack: a field the digest never sees, because the parser drops it before the digest is recomputed.
	const run = await runEdited(t, plan => (plan.skip_grading = true));
	t.equal(run.status, 2, run.stderr);
	t.match(run.stderr, /^hlab: plan \S+ has an unknown field "skip_grading" \(not part of harness-lab\/plan@1/);
	t.equal(run.stderr.trim().split('\n').length, 1, 'one line');
	t.ok(await absent(run.artifacts), 'no evidence directory is made for a refused plan');
});

t.test('a plan of a newer schema version is refused as written by a newer hlab, naming both versions', async t => {
	const run = await runEdited(t, plan => {
		plan.schema = 'harness-lab/plan@2';
		plan.plan_digest = computePlanDigest(plan as never);
	});
	t.equal(run.status, 2, run.stderr);
	t.match(run.stderr, /written by a newer hlab \(harness-lab\/plan@2; this hlab \S+ reads harness-lab\/plan@1\): upgrade/);
	t.notMatch(run.stderr, /edited after freezing/);
});

t.test('a newer hlab\'s plan with a field this one does not know says so instead of blaming an edit', async t => {
	const run = await runEdited(t, plan => {
		plan.hlab_version = '9.0.0';
		plan.workspace_limit_bytes = 1024;
		plan.plan_digest = computePlanDigest(plan as never);
	});
	t.equal(run.status, 2, run.stderr);
	t.match(run.stderr, new RegExp(`unknown field "workspace_limit_bytes": it was written by a newer hlab \\(9\\.0\\.0; this is ${hlabVersion.replaceAll('.', '\\.')}\\): upgrade`));
	t.notMatch(run.stderr, /edited after freezing/);
});
