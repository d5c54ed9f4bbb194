import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {writeSyntheticSide} from '../../checks/pair-recovery/synthetic-side.js';
import {installRoot} from '../../files/install-root.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

t.test('a pair whose compare decides revise records it and ends with exit status 3', async t => {
	const dir = await tempDir(t, 'hlab-pair-revise-');
	const frozen = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	const snapshot = await hlab(['snapshot-source', '--out', 'source.tar', '--dir', installRoot], {cwd: dir});
	t.equal(snapshot.record.exit_code, 0, snapshot.stderr);
	// The synthetic eval answers every compare with accept; this one, as a controller might, with revise.
	const side = await writeSyntheticSide(dir, 'revising-hlab', {baseline: {records: 1, then: 'report'}, candidate: {records: 1, then: 'report'}});
	const source = await readFile(side, 'utf8');
	t.match(source, "decision: 'accept'");
	await writeFile(side, source.replace("decision: 'accept'", "decision: 'revise'"));
	const args = ['pair', '--plan', 'plan.json', '--baseline', 'revising-hlab.mjs', '--source-baseline', 'source.tar', '--candidate', join(installRoot, 'examples', 'candidates', 'step-budget.ts')];
	const paired = await hlab([...args, '--output', 'pair-1', '--timeout', '60'], {cwd: dir});
	t.equal(paired.record.exit_code, 3, `${paired.stdout}${paired.stderr}`);
	t.match(JSON.parse(await readFile(join(dir, 'pair-1', 'pair.json'), 'utf8')), {status: 'finished', comparison: {decision: 'revise'}});
	t.match(paired.stdout, /pair finished: revise/);
});

t.test('a pair whose compare rejects prints the reasons the decision names', async t => {
	const dir = await tempDir(t, 'hlab-pair-reject-');
	const frozen = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	const snapshot = await hlab(['snapshot-source', '--out', 'source.tar', '--dir', installRoot], {cwd: dir});
	t.equal(snapshot.record.exit_code, 0, snapshot.stderr);
	const side = await writeSyntheticSide(dir, 'rejecting-hlab', {baseline: {records: 1, then: 'report'}, candidate: {records: 1, then: 'report'}});
	const checks = [
		{rule: 'verification', satisfied: true, message: 'both reports verified'},
		{rule: 'require_all_pass', satisfied: false, message: 'candidate failed background_job_poll'},
	];
	await writeFile(side, (await readFile(side, 'utf8')).replace("decision: 'accept'", `decision: 'reject', checks: ${JSON.stringify(checks)}`));
	const args = ['pair', '--plan', 'plan.json', '--baseline', 'rejecting-hlab.mjs', '--source-baseline', 'source.tar', '--candidate', join(installRoot, 'examples', 'candidates', 'step-budget.ts')];
	const paired = await hlab([...args, '--output', 'pair-1', '--timeout', '60'], {cwd: dir});
	t.equal(paired.record.exit_code, 1, `${paired.stdout}${paired.stderr}`);
	t.match(paired.stdout, /^pair finished: reject: the baseline executable's compare decided reject: require_all_pass: candidate failed background_job_poll$/m, 'the failing check is the reason');
	t.notMatch(paired.stdout, /both reports verified/, 'a satisfied check is no reason to reject');
});
