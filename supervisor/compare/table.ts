import type {Report, TaskResult} from '../attempt/report/report-schema.js';
import type {TaskRow} from './decision-schema.js';

/** One row per task of the denominator, baseline beside candidate. */
export function taskRows(ids: string[], baseline: Report | null, candidate: Report | null): TaskRow[] {
	const cell = (task: TaskResult | undefined): TaskRow['baseline'] => task === undefined ? null : {
		status: task.status, reason: task.reason, turns: task.usage?.turns ?? null, total_tokens: task.usage?.total_tokens ?? null, wall_ms: task.wall_ms,
	};
	return ids.map((id, index) => ({
		task_id: id,
		baseline: cell(baseline?.tasks[index]),
		candidate: cell(candidate?.tasks[index]),
	}));
}

/** A plain-text side-by-side table for a terminal. */
export function renderTable(rows: TaskRow[]): string {
	const side = (cell: TaskRow['baseline']): string[] => cell === null
		? ['-', '-', '-', '-']
		: [cell.status + (cell.reason ? ` (${cell.reason})` : ''), show(cell.turns), show(cell.total_tokens), cell.wall_ms === null ? '?' : `${Math.round(cell.wall_ms)}`];
	const header = ['task', 'baseline', 'turns', 'tokens', 'ms', 'candidate', 'turns', 'tokens', 'ms'];
	const body = rows.map(row => [row.task_id, ...side(row.baseline), ...side(row.candidate)]);
	const widths = header.map((title, column) => Math.max(title.length, ...body.map(line => line[column]!.length)));
	const format = (line: string[]): string => line.map((text, column) => text.padEnd(widths[column]!)).join('  ').trimEnd();
	return [format(header), format(widths.map(width => '-'.repeat(width))), ...body.map(format)].join('\n');
}

function show(value: number | null): string {
	return value === null ? '?' : String(value);
}
