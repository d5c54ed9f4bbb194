import type {PairRecord} from './pair-record.js';

/** The text `hlab pair` prints: one line per side, the pair's decision, and where pair.json is. */
export function pairSummary(record: PairRecord, output: string): string {
	const lines: string[] = [];
	for (const name of ['baseline', 'candidate'] as const) {
		const side = record.sides[name];
		const tasks = record.tasks.map(task => task[name]);
		const passed = tasks.filter(task => task.status === 'passed').length;
		const missing = tasks.filter(task => task.status === 'missing').length;
		const ended = side.exit_code !== null ? `exit ${side.exit_code}` : side.signal ?? side.failure ?? side.state;
		lines.push(`${name.padEnd(9)} ${side.state.padEnd(11)} ${String(ended).padEnd(10)} ${passed}/${tasks.length} passed${missing ? `, ${missing} missing (failed)` : ''}${side.wall_ms !== null ? `, ${(side.wall_ms / 1000).toFixed(1)} s` : ''}`);
	}
	for (const name of ['baseline', 'candidate'] as const) {
		const message = record.sides[name].leaks?.message;
		if (message) lines.push(`leaks: ${message}`);
	}
	lines.push(`pair ${record.status}: ${record.comparison?.decision ?? 'no decision'}: ${record.comparison?.reason ?? ''}`);
	lines.push(`ledger: ${output}/pair.json`);
	return `${lines.join('\n')}\n`;
}
