import t from 'tap';
import {AcceptancePolicy} from '../../../supervisor/plan/experiment-policy.js';
import {planPower, UnattainableRuleError} from '../../../supervisor/plan/plan-power.js';
import {planSize} from '../../../supervisor/plan/plan-size.js';

const rule = (fields: object) => AcceptancePolicy.parse(fields);

t.test('a quality rule no result could meet is refused, naming the shape that would meet it', async t => {
	const quality = rule({improvement: 'quality', min_confidence: 0.95});
	t.throws(() => planPower(quality, 3, 1), new UnattainableRuleError('min_confidence 0.95 can never be met over 3 tasks × 1 trial: the exact sign test needs at least 6 paired trials, all won by the candidate; with repeats it flips whole tasks and needs at least 6 tasks, so freeze 6 tasks × 1 trial or more tasks'));
	t.throws(() => planPower(rule({improvement: 'quality', min_confidence: 0.99}), 7, 1), /at least 8 paired trials.*freeze 8 tasks × 1 trial/);
	// Repeats do not rescue too few tasks: the sign-flip test over 3 tasks never goes below p = 2/8.
	t.throws(() => planPower(quality, 3, 2), new UnattainableRuleError('min_confidence 0.95 can never be met over 3 tasks × 2 trials: the exact sign-flip test over tasks needs at least 6 tasks, all won by the candidate, however many trials each; freeze 6 tasks × 2 trials'));
	// Six tasks are just enough: six wins out of six is p = 1/32 ≤ 0.05.
	t.equal(planPower(quality, 6, 2)?.fewest_discordant_pairs, 6);
	t.equal(planPower(quality, 6, 1)?.fewest_discordant_pairs, 6);
});

t.test('other rules are frozen with their power, never refused; no min_confidence, no power', async t => {
	t.equal(planPower(rule({improvement: 'quality'}), 3, 1), undefined);
	const power = planPower(rule({improvement: 'non-regression', min_confidence: 0.95}), 3, 1)!;
	t.equal(power.detectable_effect, null, 'three pairs detect nothing, and it says so');
	t.equal(power.pairs, 3);
});

t.test('the detectable effect at freeze and plan size answer the same question both ways', async t => {
	const power = planPower(rule({improvement: 'quality', min_confidence: 0.95}), 7, 5)!;
	t.equal(power.pairs, 35);
	const effect = power.detectable_effect!;
	t.ok(effect > 0.2 && effect < 0.5, `7 tasks × 5 trials detect a gain of ${effect}`);
	const size = planSize({effect, tasks: 7, confidence: 0.95, baseline_rate: 0.5, power: 0.8});
	t.ok(size.trials_per_task! <= 5, `and ${size.trials_per_task} trials per task find a gain of ${effect}`);
});
