import {join} from 'node:path';
import type {AgentRun} from './agent-run.js';

/** The text `hlab agent` prints: outcome, grade, usage (unknown said as such), and where the journal is. */
export function agentRunSummary(run: AgentRun): string {
	const {outcome, grade} = run;
	const known = (value: number | null): string => (value === null ? 'unknown' : String(value));
	const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
	const {usage} = outcome;
	const lines = [
		`task       ${run.task}${run.candidate ? ` (candidate ${run.candidate.plugin_id ?? 'not loaded'})` : ''}`,
		`outcome    ${outcome.status}${outcome.reason && outcome.reason !== outcome.status ? ` (${outcome.reason})` : ''} after ${plural(outcome.steps, 'step')}${outcome.message ? `: ${outcome.message}` : ''}`,
		...(outcome.stopped_by ? [`stopped by ${outcome.stopped_by.plugin}: ${outcome.stopped_by.reason}`] : []),
		...(outcome.final_text ? [`final      ${outcome.final_text.replace(/\s+/g, ' ')}`] : []),
		`grade      ${grade.passed ? 'passed' : 'FAILED'}${grade.score === null ? '' : ` (score ${grade.score.toFixed(2)})`}`,
		...grade.details.split('\n').map(line => `  ${line}`),
		`usage      ${plural(usage.turns, 'turn')}; tokens: input ${known(usage.input_tokens)} (cache read ${known(usage.cache_read_tokens)}, cache write ${known(usage.cache_write_tokens)}), output ${known(usage.output_tokens)}, total ${known(usage.total_tokens)}; cost ${usage.cost_usd === null ? 'unknown' : `$${usage.cost_usd}`}`,
		`wall time  ${run.wall_ms === null ? 'unknown: the execution never started' : `${(run.wall_ms / 1000).toFixed(1)} s`}`,
		`workspace  ${run.workspace}`,
		`journal    ${join(run.state_dir, 'journal.jsonl')}`,
	];
	return `${lines.join('\n')}\n`;
}
