import t from 'tap';
import {normalCdf} from '../../../supervisor/statistics/normal-cdf.js';
import {normalQuantile} from '../../../supervisor/statistics/normal-quantile.js';
import {studentQuantile} from '../../../supervisor/statistics/student-quantile.js';

t.test('normal quantiles and distribution function match the tables', async t => {
	t.ok(Math.abs(normalQuantile(0.975) - 1.959964) < 1e-6);
	t.ok(Math.abs(normalQuantile(0.8) - 0.841621) < 1e-6);
	t.ok(Math.abs(normalQuantile(0.005) + 2.575829) < 1e-6);
	t.ok(Math.abs(normalCdf(1.959964) - 0.975) < 1e-6);
	t.ok(Math.abs(normalCdf(-1) - 0.158655) < 1e-6);
	t.throws(() => normalQuantile(1));
});

t.test('Student t quantiles (two-sided 95%) match the tables', async t => {
	const table: Array<[number, number]> = [[1, 12.706], [2, 4.303], [3, 3.182], [5, 2.571], [10, 2.228], [19, 2.093], [30, 2.042]];
	for (const [df, value] of table) t.ok(Math.abs(studentQuantile(0.975, df) - value) < 2e-3, `df ${df}: ${studentQuantile(0.975, df)} is ${value}`);
});
