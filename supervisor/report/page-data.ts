import {integrityReasonText, type Report, type TaskResult} from '../attempt/report/report-schema.js';
import type {ReportInput, SideInput} from './report-input.js';
import type {TaskEvidence} from './task-evidence.js';
import {PairedMetric, taskDifferences} from '../compare/statistics.js';
import {summaryMarkdown} from '../compare/ci/summary-markdown.js';

/** What the page's table shows of one task on one side. */
function cellOf(side: SideInput, index: number) {
	const task: TaskResult | undefined = side.report.tasks[index];
	if (task === undefined) return null;
	return {
		status: task.status,
		reason: task.reason,
		message: task.message,
		grade: task.grade,
		turns: task.usage?.turns ?? null,
		tokens: task.usage?.total_tokens ?? null,
		wall_ms: task.wall_ms === null ? null : Math.round(task.wall_ms),
		leak: side.leaks[index] ?? null,
		outcome: task.outcome === null ? null : {status: task.outcome.status, steps: task.outcome.steps, final_text: task.outcome.final_text, stopped_by: task.outcome.stopped_by},
		usage: task.usage,
	};
}

function sideOf(side: SideInput) {
	const {report} = side;
	return {
		label: side.label,
		report_path: side.report_path,
		attempt_id: report.attempt_id,
		side: report.side,
		completion: report.completion,
		timing: report.timing,
		admission: report.admission,
		candidate: report.candidate,
		host: report.host,
		agent: agentOf(report.agent ?? null),
		integrity: integrityOf(report.integrity),
		totals: report.totals,
		passed: report.passed,
		problems: report.problems,
		started_at: report.started_at,
		ended_at: report.ended_at,
		attempt_wall_ms: report.attempt_wall_ms,
		plan_digest: report.plan_digest,
		// A resumed attempt: where the records it took came from, one line per earlier attempt.
		resumed: (report.resumed_from ?? []).map(source => `${source.entries.length} of ${report.totals.tasks} entries taken from attempt ${source.attempt_id}${source.dir === null ? '' : ` (${source.dir})`}: ${source.entries.join(', ')}`),
	};
}

/** A third-party agent as one line: adapter and its version, package and version, installed digest, config digest. */
function agentOf(agent: Report['agent']): string | null {
	if (agent == null) return null;
	const short = (digest: string): string => digest.replace(/^sha256:/, '').slice(0, 12);
	const pkg = agent.package === null ? 'a script beside its spec' : `${agent.package.name}@${agent.package.version}`;
	const installed = agent.installed_digest === null ? '' : `, installed ${short(agent.installed_digest)}`;
	return `${agent.adapter} adapter v${agent.adapter_version}: ${pkg}${installed}, config ${short(agent.config_digest)}${agent.model === null ? '' : `, model ${agent.model}`}`;
}

/** The side's label with its reasons as sentences, and in a line what contained meant for it. */
function integrityOf(integrity: Report['integrity']) {
	const note = integrity.label === 'contained'
		? 'the agent (in the sandboxed task runner, or a host), its tool commands and the graders\' runs of workspace code ran in bubblewrap, with the evidence, the plan, the keys and the hidden data out of view'
		: 'untrusted code ran where it could reach the supervisor, the hidden data or the evidence: the evidence is only as good as that code';
	return {label: integrity.label, reasons: integrity.reasons.map(reason => integrityReasonText[reason]), note};
}

/** The data the page embeds up front: everything but the transcripts and journals, which load when a task is opened. */
export function pageData(input: ReportInput) {
	const count = Math.max(...input.sides.map(side => side.report.tasks.length));
	const rows = Array.from({length: count}, (_, index) => ({
		index,
		task_id: input.sides.map(side => side.report.tasks[index]?.task_id).find(id => id !== undefined) ?? `#${index}`,
		cells: input.sides.map(side => cellOf(side, index)),
	}));
	const decision = input.decision === null ? null : {
		decision: input.decision.decision, decided_at: input.decision.decided_at, checks: input.decision.checks,
		policy: input.decision.policy, duration_ratio: input.decision.duration_ratio, timing: input.decision.timing,
		insufficient: input.decision.insufficient,
	};
	return {kind: input.kind, generated_at: input.generated_at, plan: input.plan, statistics: input.statistics, decision, retried: input.decision?.retried ?? [], sides: input.sides.map(sideOf), rows, charts: chartsOf(input), family: familyOf(input), summary_markdown: summaryOf(input)};
}

/** The decision as --summary-md writes it (without the page's own link), which the page renders. */
function summaryOf(input: ReportInput): string | null {
	const decision = input.family?.decision ?? input.decision;
	return decision === null ? null : summaryMarkdown(decision, null);
}

/** Every candidate of a family side by side: its verdict, p-values, own decision's statistics and checks, and its charts' data. */
function familyOf(input: ReportInput) {
	if (input.family === null) return null;
	const {decision, differences} = input.family;
	return {
		baseline: decision.baseline, correction: decision.correction, family_size: decision.family_size, confidence: decision.confidence, accepted: decision.accepted,
		candidates: decision.candidates.map((item, index) => ({
			candidate: item.candidate, verdict: item.verdict, alone: item.decision.decision, p_value: item.p_value, adjusted_p_value: item.adjusted_p_value,
			checks: item.decision.checks, insufficient: item.decision.insufficient, statistics: item.decision.statistics, totals: item.decision.candidate.totals,
			charts: differences[index] ?? [],
		})),
	};
}

/** Per statistic, each task's paired differences, which the page draws beside the statistic's interval. */
function chartsOf(input: ReportInput) {
	const [baseline, candidate] = input.sides;
	if (input.kind !== 'comparison' || baseline === undefined || candidate === undefined) return [];
	return PairedMetric.options.map(metric => ({metric, tasks: taskDifferences(baseline.report, candidate.report, metric)}));
}

/** One embedded evidence block per task and side, named so the page finds it when the task is opened. */
export function evidenceBlocks(input: ReportInput): Array<{id: string; evidence: TaskEvidence}> {
	return input.sides.flatMap((side, sideIndex) => side.evidence.map((evidence, index) => ({id: `hlab-ev-${sideIndex}-${index}`, evidence})));
}
