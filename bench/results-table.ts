import type {BenchResult} from './bench-result.js';

const begin = '<!-- results:begin -->';
const end = '<!-- results:end -->';

export function renderTable(results: BenchResult[], machine: string): string {
	const rows = results.map(result => {
		const figures = (values: Record<string, number>): string => Object.entries(values).map(([key, value]) => `${key} ${value}`).join(', ');
		const target = result.target ? `${result.target.met ? 'met' : 'MISSED'}: ${result.target.description}` : '';
		return `| ${result.name} | ${result.figure} | ${result.ratio} (${result.ratio_spread.min}–${result.ratio_spread.max}) | ${figures(result.measured)} | ${figures(result.floor)}: ${result.floor_description} | ${target} |`;
	});
	return [
		`Machine: ${machine}`,
		'',
		'| bench | figure | ratio to floor (spread) | measured | floor | target |',
		'| --- | --- | --- | --- | --- | --- |',
		...rows,
	].join('\n');
}

/** Replaces the table between the markers, keeping the rest of the README as written. */
export function replaceTable(readme: string, table: string): string {
	const from = readme.indexOf(begin);
	const to = readme.indexOf(end);
	if (from === -1 || to === -1) return `${readme.trimEnd()}\n\n${begin}\n${table}\n${end}\n`;
	return `${readme.slice(0, from + begin.length)}\n${table}\n${readme.slice(to)}`;
}
