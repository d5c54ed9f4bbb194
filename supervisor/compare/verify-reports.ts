import {accessSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {dirname, isAbsolute, join, relative, resolve} from 'node:path';
import {Report} from '../attempt/report/report-schema.js';
import {computePlanDigest} from '../plan/plan-digest.js';
import type {Plan} from '../plan/plan-schema.js';
import {parsePlan} from '../plan/parse-plan.js';
import {builtinScorer} from '../plan/identities.js';
import {taskById} from '../plan/task-selection.js';
import {InputError} from '../input-error.js';
import {describeIssues} from '../../controller-protocol/index.js';

export class CompareInputError extends InputError {
	readonly reason = 'compare_input';
}

/** One side of a comparison as read from disk. */
export interface ReportSide {
	label: 'baseline' | 'candidate';
	reportPath: string;
	dir: string;
	/** Null when the report does not match the schema; the problem says why. */
	report: Report | null;
	plan: Plan | null;
}

/** Reads a report and the plan kept beside it; an unreadable or non-JSON file is bad input, a schema mismatch a verification failure. */
export async function readSide(label: ReportSide['label'], reportPath: string, problems: string[]): Promise<ReportSide> {
	const path = resolve(reportPath);
	const dir = dirname(path);
	const json = await readJson(path);
	const report = Report.safeParse(json);
	if (!report.success) problems.push(`${label}: ${path} is not a valid harness-lab/report@1 (${describeIssues(report.error)})`);
	let plan: Plan | null = null;
	try {
		const parsed = parsePlan(JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')));
		if (parsed.ok) plan = parsed.plan;
		else problems.push(`${label}: the plan kept in ${dir} ${parsed.problem}`);
	} catch (error) {
		problems.push(`${label}: the plan kept in ${dir} cannot be read: ${(error as Error).message}`);
	}
	return {label, reportPath: path, dir, report: report.success ? report.data : null, plan};
}

async function readJson(path: string): Promise<unknown> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		throw new CompareInputError(`cannot read report ${path}: ${(error as Error).message}`);
	}
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new CompareInputError(`report ${path} is not JSON: ${(error as Error).message}`);
	}
}

/** Everything that must hold before the acceptance rule may even be applied; returns every problem found. */
export async function verifySides(baseline: ReportSide, candidate: ReportSide): Promise<string[]> {
	const problems: string[] = [];
	for (const side of [baseline, candidate]) {
		if (side.plan === null || side.report === null) continue;
		const computed = computePlanDigest(side.plan);
		if (computed !== side.plan.plan_digest) problems.push(`${side.label}: its plan.json was edited (recorded digest ${side.plan.plan_digest}, contents give ${computed})`);
		if (side.report.plan_digest !== side.plan.plan_digest) problems.push(`${side.label}: the report cites plan ${side.report.plan_digest} but its evidence holds plan ${side.plan.plan_digest}`);
		if (!side.report.admission.admitted) problems.push(`${side.label}: the attempt was not admitted (${side.report.admission.differences.join('; ')})`);
		if (side.report.side !== side.label) problems.push(`${side.label}: the report was produced as the ${side.report.side} side`);
		if (side.report.task_ids.join('\n') !== side.plan.task_ids.join('\n')) problems.push(`${side.label}: the report's denominator differs from its plan's`);
		const order = side.report.tasks.map(task => task.task_id);
		if (order.join('\n') !== side.plan.task_ids.join('\n') || side.report.tasks.some((task, index) => task.index !== index)) {
			problems.push(`${side.label}: the task results are not the plan's ordered denominator`);
		}
		problems.push(...negativeUsage(side.label, side.report));
		problems.push(...missingEvidence(side.label, side.dir, side.report));
	}
	if (baseline.plan !== null && candidate.plan !== null && baseline.plan.plan_digest !== candidate.plan.plan_digest) {
		problems.push(`the two sides ran different plans (${baseline.plan.plan_digest} and ${candidate.plan.plan_digest})`);
	}
	if (baseline.plan !== null && candidate.plan !== null && baseline.plan.task_ids.join('\n') !== candidate.plan.task_ids.join('\n')) {
		problems.push('the ordered denominators differ between the sides');
	}
	return problems;
}

function negativeUsage(label: string, report: Report): string[] {
	const out: string[] = [];
	for (const task of report.tasks) {
		for (const [key, value] of Object.entries(task.usage ?? {})) {
			if (typeof value === 'number' && value < 0) out.push(`${label}: task ${task.task_id} reports negative ${key}`);
		}
		if (task.wall_ms !== null && task.wall_ms < 0) out.push(`${label}: task ${task.task_id} reports negative wall time`);
	}
	return out;
}

/** Every evidence path a report cites must exist inside its evidence directory. */
function missingEvidence(label: string, dir: string, report: Report): string[] {
	return report.tasks.flatMap(task => taskEvidenceProblems(label, dir, task));
}

// Looked up synchronously: tens of thousands of small lookups cost several times more CPU through the thread pool.
function taskEvidenceProblems(label: string, dir: string, task: Report['tasks'][number]): string[] {
	const out: string[] = [];
	for (const [kind, rel] of Object.entries(task.evidence)) {
		const path = resolve(dir, rel);
		const inside = relative(dir, path);
		if (isAbsolute(rel) || inside.startsWith('..')) {
			out.push(`${label}: task ${task.task_id} cites ${kind} evidence outside its directory (${rel})`);
			continue;
		}
		try {
			accessSync(path);
		} catch {
			out.push(`${label}: task ${task.task_id} cites ${kind} evidence ${rel}, which is missing`);
		}
	}
	if (task.outcome !== null && !('result' in task.evidence)) out.push(`${label}: task ${task.task_id} cites no result.json`);
	return out;
}

/** For built-in and Harbor plans: the graders (a Harbor task's tests/) and the deciding code must still be the ones frozen, or the comparison is not the frozen rule. */
export async function verifyScorer(plan: Plan): Promise<string[]> {
	// Loaded for a Harbor plan only: its task reader (and TOML parser) is no part of any other comparison.
	if (plan.harbor !== undefined) return changedScorer(plan, (await (await import('../plan/freeze-harbor.js')).harborIdentities(plan.harbor)).scorer);
	if (plan.scorer.kind !== 'builtin') return [];
	const tasks = plan.task_ids.map(taskById);
	const missing = plan.task_ids.filter((_, index) => tasks[index] === null);
	if (missing.length > 0) return [`scorer: task${missing.length > 1 ? 's' : ''} ${missing.join(', ')} no longer in the suite`];
	return changedScorer(plan, await builtinScorer(tasks.filter(task => task !== null)));
}

function changedScorer(plan: Plan, now: Plan['scorer']): string[] {
	if (now.digest === plan.scorer.digest) return [];
	const changed = Object.keys({...plan.scorer.files, ...now.files}).filter(name => plan.scorer.files[name] !== now.files[name]);
	return [`scorer: the graders or the compare code changed since freezing (${changed.join(', ')}); a new plan and baseline are needed`];
}
