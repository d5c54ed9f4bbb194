import t from 'tap';
import {holmAdjust} from '../../../supervisor/statistics/holm.js';

function close(actual: number[], expected: number[]): boolean {
	return actual.length === expected.length && actual.every((value, index) => Math.abs(value - expected[index]!) < 1e-12);
}

t.test('Holm on the textbook example: four hypotheses at α = 0.05 reject H1 and H4', async t => {
	// Holm (1979), as worked in Wikipedia's "Holm–Bonferroni method": p = 0.01, 0.04, 0.03, 0.005.
	const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
	t.ok(close(adjusted, [0.03, 0.06, 0.06, 0.02]), `adjusted ${adjusted.join(', ')}`);
	t.strictSame(adjusted.map(p => p <= 0.05), [true, false, false, true]);
});

t.test('Holm agrees with R p.adjust(method = "holm")', async t => {
	// p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "holm") gives 0.05 0.08 0.09 0.09 0.09.
	t.ok(close(holmAdjust([0.01, 0.02, 0.03, 0.04, 0.05]), [0.05, 0.08, 0.09, 0.09, 0.09]));
	t.strictSame(holmAdjust([0.5, 0.9]), [1, 1], 'capped at 1');
	t.strictSame(holmAdjust([0.04]), [0.04], 'a family of one is not adjusted');
	t.strictSame(holmAdjust([]), []);
});
