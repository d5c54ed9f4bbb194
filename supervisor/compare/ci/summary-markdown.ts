import type {Decision} from '../decision-schema.js';
import type {CandidatesDecision} from '../candidates-decision-schema.js';
import {signTestName} from '../statistics.js';

/** A decision as the Markdown a person reads on a CI job page: the verdict, the checks, the statistics, the tasks. */
export function summaryMarkdown(decision: Decision | CandidatesDecision, page: string | null): string {
	const body = 'candidates' in decision ? candidatesMarkdown(decision) : decisionMarkdown(decision, decision.decision);
	return [...body, ...(page === null ? [] : ['', `[Comparison page](${page})`]), ''].join('\n');
}

function candidatesMarkdown(decision: CandidatesDecision): string[] {
	const p = (value: number | null): string => (value === null ? '—' : value.toPrecision(3));
	return [
		`## hlab: ${decision.accepted.length} of ${decision.candidates.length} candidates accepted`,
		'',
		`Holm's correction over ${decision.family_size} p-values against \`${cell(decision.baseline)}\`.`,
		'',
		'| candidate | verdict | p-value | adjusted |',
		'| --- | --- | --- | --- |',
		...decision.candidates.map(item => `| \`${cell(item.candidate)}\` | **${item.verdict.toUpperCase()}** | ${p(item.p_value)} | ${p(item.adjusted_p_value)} |`),
		...decision.candidates.flatMap(item => ['', `### ${cell(item.candidate)}`, '', ...decisionMarkdown(item.decision, item.verdict).slice(2)]),
	];
}

function decisionMarkdown(decision: Decision, verdict: Decision['decision']): string[] {
	const stats = decision.statistics;
	return [
		`## hlab decision: ${verdict.toUpperCase()}`,
		'',
		...(decision.hypothesis === null ? [] : [`Hypothesis: ${cell(decision.hypothesis)}`, '']),
		...(decision.insufficient === null ? [] : [`**Not enough evidence yet:** ${cell(decision.insufficient.message)}`, '']),
		'| | check | |',
		'| --- | --- | --- |',
		...decision.checks.map(check => `| ${check.satisfied ? '✅' : '❌'} | ${check.rule} | ${cell(check.message)} |`),
		...(stats === null ? [] : [
			'',
			`Paired statistics at ${Math.round(stats.confidence * 100)}%: candidate alone passed ${stats.pass_fail.candidate_only}, baseline alone ${stats.pass_fail.baseline_only} of ${stats.pass_fail.pairs} pairs (${signTestName(stats.pass_fail)} p = ${stats.pass_fail.p_value.toPrecision(3)}).`,
			'',
			'| difference (candidate − baseline) | mean | interval | pairs |',
			'| --- | --- | --- | --- |',
			...stats.differences.map(item => `| ${item.metric} | ${item.mean_difference === null ? '—' : item.mean_difference.toFixed(2)} | ${item.low === null ? '—' : `[${item.low.toFixed(2)}, ${item.high!.toFixed(2)}]`} | ${item.pairs} |`),
		]),
		'',
		'| task | baseline | candidate |',
		'| --- | --- | --- |',
		...decision.tasks.map(row => `| ${cell(row.task_id)} | ${side(row.baseline)} | ${side(row.candidate)} |`),
	];
}

function side(result: Decision['tasks'][number]['baseline']): string {
	if (result === null) return '—';
	return `${result.status}${result.reason === null ? '' : ` (${cell(result.reason)})`}, ${result.turns ?? '?'} turns, ${result.total_tokens ?? '?'} tokens`;
}

/** Text inside a table cell: no pipe ends the cell, no newline ends the row, no markup is made of it. */
function cell(text: string): string {
	return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[<>]/g, match => (match === '<' ? '&lt;' : '&gt;')).replace(/\r?\n/g, ' ');
}
