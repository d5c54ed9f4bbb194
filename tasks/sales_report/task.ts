import {readFile} from 'node:fs/promises';
import {isDeepStrictEqual} from 'node:util';
import {defineTask, taskFile} from '../define-task.js';
import {GradeChecks} from '../grading/grade-checks.js';
import {changedFiles, readWorkspaceJson} from '../grading/workspace-files.js';
import {reference} from './reference.js';

const id = 'sales_report';

export interface SalesReport {
	total_units: number;
	total_revenue: number;
	revenue_by_region: Record<string, number>;
	top_region: string;
}

/** The report the numbers call for; revenue is summed in cents so rounding is exact. */
export function computeReport(csv: string): SalesReport {
	const cents = new Map<string, number>();
	let units = 0;
	for (const line of csv.trim().split('\n').slice(1)) {
		const [region, , unitText, priceText] = line.split(',');
		const count = Number(unitText);
		units += count;
		cents.set(region!, (cents.get(region!) ?? 0) + Math.round(count * Number(priceText) * 100));
	}
	const byRegion = Object.fromEntries([...cents].map(([region, value]) => [region, value / 100]));
	const top = [...cents].sort((a, b) => b[1] - a[1])[0]![0];
	return {
		total_units: units,
		total_revenue: [...cents.values()].reduce((sum, value) => sum + value, 0) / 100,
		revenue_by_region: byRegion,
		top_region: top,
	};
}

/** Numbers agree to the cent; anything else must be equal. */
function close(actual: unknown, expected: unknown): boolean {
	if (typeof expected === 'number') return typeof actual === 'number' && Math.abs(actual - expected) < 0.005;
	if (expected !== null && typeof expected === 'object') {
		if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
		const keys = Object.keys(expected);
		return isDeepStrictEqual(Object.keys(actual).sort(), [...keys].sort()) && keys.every(key => close((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key]));
	}
	return isDeepStrictEqual(actual, expected);
}

export const salesReport = defineTask({
	id,
	title: 'Compute a sales report file from given numbers',
	prompt: [
		'Using data/sales.csv, write report.json at the workspace root: a JSON object with exactly these keys:',
		'`total_units` (all units sold), `total_revenue` (the sum of units times unit price, in dollars, rounded to cents),',
		'`revenue_by_region` (an object from each region to its revenue, rounded to cents) and `top_region` (the region with the largest revenue).',
		'Do not change the data.',
	].join('\n'),
	tools: [],
	reference,
	async grade(workspace) {
		const checks = new GradeChecks();
		const edited = await changedFiles(workspace, taskFile(id, ''), ['data/sales.csv']);
		checks.check('the data is unchanged', edited.length === 0, edited.length ? edited.join('; ') : null);
		const expected = computeReport(await readFile(taskFile(id, 'data/sales.csv'), 'utf8'));
		const report = await readWorkspaceJson(workspace, 'report.json');
		if (!report.ok) {
			checks.check('report.json holds the right numbers', false, report.problem);
			return checks.grade();
		}
		const value = report.value as Record<string, unknown> | null;
		const field = (key: keyof SalesReport): void => {
			checks.check(`${key} is right`, value !== null && typeof value === 'object' && close(value[key], expected[key]), `expected ${JSON.stringify(expected[key])}, found ${JSON.stringify(value?.[key] ?? null)}`);
		};
		checks.check('report.json has exactly the four keys', value !== null && typeof value === 'object' && isDeepStrictEqual(Object.keys(value).sort(), Object.keys(expected).sort()));
		for (const key of ['total_units', 'total_revenue', 'revenue_by_region', 'top_region'] as const) field(key);
		return checks.grade();
	},
});
