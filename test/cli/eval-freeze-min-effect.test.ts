import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const warning = /^hlab: warning: the acceptance rule has no min_effect and the plan runs one trial per task, so any saving in turns or tokens, however small, counts as an improvement; measure the noise with hlab eval --plan PLAN --calibrate --out DIR and set min_effect, or freeze with --repeat \(docs\/statistics\.md\)\n$/;

t.test('freeze warns in one line, and still freezes, when the rule has no min_effect over one trial per task', async t => {
	const dir = await tempDir(t, 'hlab-noise-');
	const frozen = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0);
	t.match(frozen.stderr, warning);
	t.match(frozen.stdout, /^plan .* frozen/m);
	t.notOk('min_effect' in JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')).policy.acceptance, 'no min_effect field, so the digest is what it was');
});

t.test('no warning with a min_effect, with repeats, or with a rule on passes', async t => {
	const dir = await tempDir(t, 'hlab-noise-');
	const policies = {
		margin: {acceptance: {min_effect: {tokens: {relative: 0.05}}}},
		quality: {acceptance: {improvement: 'quality'}},
	};
	for (const [name, policy] of Object.entries(policies)) {
		await writeFile(join(dir, `${name}.json`), JSON.stringify(policy));
		const frozen = await hlab(['eval', '--task', 'answer_from_prompt', '--experiment-policy', `${name}.json`, '--freeze', `${name}-plan.json`], {cwd: dir});
		t.equal(frozen.record.exit_code, 0, frozen.stderr);
		t.equal(frozen.stderr, '', name);
	}
	const repeated = await hlab(['eval', '--task', 'answer_from_prompt', '--repeat', '2', '--freeze', 'repeat-plan.json'], {cwd: dir});
	t.equal(repeated.record.exit_code, 0);
	t.equal(repeated.stderr, '', 'repeat');
	const plan = JSON.parse(await readFile(join(dir, 'margin-plan.json'), 'utf8'));
	t.same(plan.policy.acceptance.min_effect, {tokens: {relative: 0.05}}, 'the margin is frozen');
});
