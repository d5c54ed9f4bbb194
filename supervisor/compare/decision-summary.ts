import {describeIntegrity} from '../attempt/report/report-schema.js';
import type {Decision} from './decision-schema.js';
import {renderTable} from './table.js';
import {signTestName, type PairedInterval, type PairedStatistics} from './statistics.js';

/** The text `hlab eval --compare` prints: the side-by-side table, the decision, every check, and where it was written. */
export function decisionSummary(decision: Decision, output: string | null, html: string | null = null): string {
	return [
		renderTable(decision.tasks),
		'',
		...(decision.statistics === null ? [] : [...statisticsLines(decision.statistics), '']),
		...(decision.hypothesis === null ? [] : [`hypothesis: ${decision.hypothesis}`]),
		`decision: ${decision.decision.toUpperCase()}${decision.decided_by === 'controller' ? ' (decided by the pinned controller\'s accept once every verification held)' : ''}`,
		...decision.checks.map(check => `  ${check.satisfied ? 'ok ' : 'NO '} ${check.rule}: ${check.message.replaceAll('\n', '\n        ')}`),
		...(decision.insufficient === null ? [] : [`insufficient evidence: ${decision.insufficient.message}`]),
		...retriedLines(decision),
		...integrityLines(decision),
		...(output === null ? [] : [`decision written to ${output}`]),
		...(html === null ? [] : [`page written to ${html}`]),
		...(decision.evidence === null ? [] : [`controller calls kept in ${decision.evidence}`]),
	].join('\n');
}

/** Retried and infrastructure-failed entries, apart: each counted once, as it ran. */
function retriedLines(decision: Decision): string[] {
	if (decision.retried.length === 0) return [];
	const entry = (item: Decision['retried'][number]): string => `${item.side} ${item.task_id} (${[item.provider_retries ? `${item.provider_retries} provider retries` : '', item.infrastructure ? 'infrastructure failure' : ''].filter(Boolean).join(', ')})`;
	return [`retried or failed by the infrastructure, each counted once as it ran: ${decision.retried.map(entry).join('; ')}`];
}

/** Both sides' integrity, each on its own line: one side's label never stands for the other's. */
function integrityLines(decision: Decision): string[] {
	const label = (side: Decision['baseline']): string => (side.integrity === null ? 'unknown (no readable report)' : describeIntegrity(side.integrity));
	return [`integrity: baseline ${label(decision.baseline)}`, `           candidate ${label(decision.candidate)}`];
}

/** Over repeated trials: each task's pass rate on both sides, the sign test, and the intervals of the paired differences. */
function statisticsLines(statistics: PairedStatistics): string[] {
	const level = `${Math.round(statistics.confidence * 100)}%`;
	const rate = (value: number | null): string => (value === null ? '?' : `${Math.round(value * 100)}%`);
	const test = statistics.pass_fail;
	return [
		`pass rates over trials (baseline -> candidate): ${statistics.tasks.map(task => `${task.task} ${rate(task.baseline_rate)} -> ${rate(task.candidate_rate)} (${task.trials})`).join(', ')}`,
		`pass/fail pairs: candidate alone passed ${test.candidate_only}, baseline alone ${test.baseline_only} of ${test.pairs}; ${signTestName(test)} p = ${test.p_value.toPrecision(3)}, ${test.significant ? `significant at ${level}` : `not significant at ${level}`}`,
		...statistics.differences.map(item => item.mean_difference === null
			? `  ${item.metric}: no pair with both sides known`
			: `  ${item.metric}: mean paired difference ${item.mean_difference.toFixed(1)}, ${level} interval [${item.low!.toFixed(1)}, ${item.high!.toFixed(1)}] over ${item.pairs} pairs${item.left_out > 0 ? ` (${item.left_out} unknown left out)` : ''}${clusterText(item)}`),
	];
}

/** How the interval was resampled and how its spread splits; nothing for decisions written before these were kept. */
function clusterText(item: PairedInterval): string {
	if (item.clustered !== true || item.tasks === null) return '';
	const number = (value: number | null): string => (value === null ? '?' : value.toPrecision(3));
	return `; resampled by task (${item.tasks} task${item.tasks === 1 ? '' : 's'}), cluster-robust SE ${number(item.cluster_se)}, variance between tasks ${number(item.between_task)}, within a task ${number(item.within_task)}`;
}
