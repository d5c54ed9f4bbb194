import type {ReferenceScript} from '../reference/reference-script.js';
import {isToolError} from '../reference/observe.js';

/** The report computed from the CSV text the agent read (the reference's own arithmetic, in cents). */
function report(csv: string): object | null {
	const rows = csv.trim().split('\n').slice(1).map(line => line.split(','));
	if (rows.length === 0 || rows.some(row => row.length !== 4)) return null;
	const cents: Record<string, number> = {};
	let units = 0;
	for (const [region, , unitText, priceText] of rows) {
		units += Number(unitText);
		cents[region!] = (cents[region!] ?? 0) + Math.round(Number(unitText) * Number(priceText) * 100);
	}
	const regions = Object.keys(cents);
	const top = regions.reduce((best, region) => (cents[region]! > cents[best]! ? region : best), regions[0]!);
	return {
		total_units: units,
		total_revenue: Object.values(cents).reduce((sum, value) => sum + value, 0) / 100,
		revenue_by_region: Object.fromEntries(regions.map(region => [region, cents[region]! / 100])),
		top_region: top,
	};
}

/** Reads the data (and the readme), computes, writes report.json, then reads it back twice. */
export const reference: ReferenceScript = function* () {
	yield {tool: 'list_files', args: {path: '.'}};
	yield {tool: 'read_file', args: {path: 'README.md'}};
	const csv = yield {tool: 'read_file', args: {path: 'data/sales.csv'}};
	const computed = isToolError(csv) ? null : report(csv);
	if (computed === null) return 'data/sales.csv could not be read as the expected CSV.';
	const text = `${JSON.stringify(computed, null, 2)}\n`;
	yield {tool: 'write_file', args: {path: 'report.json', content: text}, note: 'Writing the report.'};
	yield {tool: 'read_file', args: {path: 'report.json'}, note: 'Reading it back.'};
	// A second identical read: redundant on purpose, so a candidate has something real to save.
	yield {tool: 'read_file', args: {path: 'report.json'}};
	return 'Wrote report.json with total units, total revenue, revenue by region and the top region.';
};
