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
	const table: Array<[number, number]> = [[1, 12.706], [2, 4.303], [3, 3.182], [4, 2.776], [5, 2.571], [10, 2.228], [19, 2.093], [30, 2.042]];
	for (const [df, value] of table) t.ok(Math.abs(studentQuantile(0.975, df) - value) < 6e-4, `df ${df}: ${studentQuantile(0.975, df)} is ${value}`);
	t.ok(Math.abs(studentQuantile(0.995, 19) - 2.861) < 6e-4, 'two-sided 99%, 19 degrees of freedom');
	t.ok(Math.abs(studentQuantile(0.975, 1) - Math.tan(Math.PI * 0.475)) < 1e-8, 'one degree of freedom: the Cauchy quantile');
	t.equal(studentQuantile(0.025, 10), -studentQuantile(0.975, 10));
});
