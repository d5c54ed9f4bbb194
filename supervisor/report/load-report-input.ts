import {readFile} from 'node:fs/promises';
import {dirname, join, resolve} from 'node:path';
import {z} from 'zod';
import {Report} from '../attempt/report/report-schema.js';
import {Decision} from '../compare/decision-schema.js';
import {PairedMetric, pairedStatistics, taskDifferences} from '../compare/statistics.js';
import {CandidatesDecision} from '../compare/candidates-decision-schema.js';
import {leakCell} from './leak-audit.js';
import {planIdentity} from './plan-identity.js';
import {ReportInput, type SideInput} from './report-input.js';
import {loadTaskEvidence, type TaskEvidence} from './task-evidence.js';
import {describeIssues} from '../../controller-protocol/index.js';
import {InputError} from '../input-error.js';

export class ReportInputError extends InputError {
	readonly reason = 'report_input';
}

/** An attempt's evidence directory, or a comparison: two report.json files and the decision made over them. */
export type ReportPaths = {attempt: string} | {baseline: string; candidate: string; decision: string} | {family: string};

/**
 * Reads and validates every file the page shows, so that rendering is a pure function of the result. With
 * `evidence: false` the tasks' transcripts and journals are left for the writer to read one at a time (`writeReport`).
 */
export async function loadReportInput(paths: ReportPaths, options: {evidence: boolean} = {evidence: true}): Promise<ReportInput> {
	const loadSide = (label: SideInput['label'], path: string) => readSide(label, path, options.evidence);
	if ('attempt' in paths) {
		const side = await loadSide('attempt', join(resolve(paths.attempt), 'report.json'));
		return ReportInput.parse({kind: 'attempt', sides: [side], decision: null, plan: await loadPlan(side), statistics: null, generated_at: new Date().toISOString()});
	}
	if ('family' in paths) return loadFamily(resolve(paths.family), options.evidence);
	const baseline = await loadSide('baseline', resolve(paths.baseline));
	const candidate = await loadSide('candidate', resolve(paths.candidate));
	const decision = parsed(Decision, await readJson(resolve(paths.decision), 'decision'), 'decision', paths.decision);
	return ReportInput.parse({
		kind: 'comparison',
		sides: [baseline, candidate],
		decision,
		plan: await loadPlan(baseline),
		// The decision's own statistics (its confidence, its margins) where it kept them; else computed at its confidence.
		statistics: decision.statistics ?? pairedStatistics(baseline.report, candidate.report, {confidence: decision.policy?.min_confidence ?? 0.95}),
		generated_at: new Date().toISOString(),
	});
}

/** Several candidates: the family's decision names the baseline and every candidate; the page shows them side by side. */
async function loadFamily(path: string, withEvidence: boolean): Promise<ReportInput> {
	const decision = parsed(CandidatesDecision, await readJson(path, 'decision'), 'decision', path);
	const baseline = await readSide('baseline', resolve(decision.baseline), withEvidence);
	const differences = [];
	for (const item of decision.candidates) {
		const candidate = parsed(Report, await readJson(resolve(item.candidate), 'report'), 'report', item.candidate);
		differences.push(PairedMetric.options.map(metric => ({metric, tasks: taskDifferences(baseline.report, candidate, metric)})));
	}
	return ReportInput.parse({kind: 'candidates', sides: [baseline], decision: null, plan: await loadPlan(baseline), statistics: null, generated_at: new Date().toISOString(), family: {decision, differences}});
}

async function readSide(label: SideInput['label'], reportPath: string, withEvidence: boolean): Promise<SideInput> {
	const raw = await readJson(reportPath, 'report');
	const report = parsed(Report, raw, 'report', reportPath);
	const dir = dirname(reportPath);
	return {
		label,
		report_path: reportPath,
		report,
		leaks: report.tasks.map(leakCell),
		evidence: withEvidence ? await evidenceOf(dir, report) : [],
	};
}

/** One task at a time: a thousand tasks must not open thousands of files at once. */
async function evidenceOf(dir: string, report: Report): Promise<TaskEvidence[]> {
	const out: TaskEvidence[] = [];
	for (const task of report.tasks) out.push(await loadTaskEvidence(dir, task));
	return out;
}

/** The plan kept beside the report; a page without it still shows the reports. */
async function loadPlan(side: SideInput): Promise<ReturnType<typeof planIdentity>> {
	try {
		return planIdentity(JSON.parse(await readFile(join(dirname(side.report_path), 'plan.json'), 'utf8')));
	} catch {
		return null;
	}
}

async function readJson(path: string, what: string): Promise<unknown> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		throw new ReportInputError(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
	}
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new ReportInputError(`${what} ${path} is not JSON: ${(error as Error).message}`);
	}
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string, path: string): T {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	throw new ReportInputError(`${what} ${path} is not valid: ${describeIssues(result.error, {limit: 2})}`);
}
