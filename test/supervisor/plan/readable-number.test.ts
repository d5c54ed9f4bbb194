import t from 'tap';
import {powerText} from '../../../supervisor/plan/plan-power.js';
import {readable} from '../../../supervisor/plan/readable-number.js';

t.test('a computed number is printed rounded: whole from 100 up, else three significant digits', async t => {
	t.equal(readable(0.3333333333333333), '0.333');
	t.equal(readable(14482.267604000002), '14482');
	t.equal(readable(0.07 * 100), '7');
	t.equal(readable(12.345), '12.3');
	t.equal(readable(0.05), '0.05');
	t.equal(readable(4), '4');
});

t.test('the power lines a freeze prints with a pilot carry no unrounded float; the plan keeps the numbers as computed', async t => {
	const power = {
		statistic: 'pass_fail' as const, tasks: 6, trials_per_task: 3, pairs: 18, confidence: 0.95, power: 0.8, baseline_rate: 1 / 3,
		fewest_discordant_pairs: 5, detectable_effect: 0.41666666666666663,
		pilot: {report: 'pilot/report.json', entries: 18, tasks: 6, detectable: [
			{statistic: 'wall_ms' as const, detectable_difference: 14482.267604000002, relative: 0.2137777777, at_most: false},
			{statistic: 'turns' as const, detectable_difference: 1.2345678, relative: null, at_most: true},
		]},
	};
	const text = powerText(power);
	t.notMatch(text, /\d\.\d{4,}|\d{5,}\.\d/, text);
	t.match(text, /gain found with 80% power is 0\.417 \(from the pilot's 33\.3% pass rate/);
	t.match(text, /wall ms 14482 per trial \(21\.4% of the pilot's mean\), turns at most 1\.23 per trial/);
	t.equal(power.pilot.detectable[0]!.detectable_difference, 14482.267604000002);
});
