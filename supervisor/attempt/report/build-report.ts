import {join} from 'node:path';
import type {Usage} from '../../../engine/outcome.js';
import {writeJsonInPieces} from '../../../files/json-in-pieces.js';
import type {Plan} from '../../plan/plan-schema.js';
import {checkedEntries} from './checked-entries.js';
import {Report, reportSchema, type AttemptLeaks, type HostMeasure, type Placement, type QueueRef, type TaskResult, type Timing} from './report-schema.js';
import {totalsOf} from './totals.js';

/** Everything a report states, from a finished run or rebuilt from a ledger; the report adds only the sums. */
export interface ReportInput {
	attemptId: string;
	side: Report['side'];
	timing: Timing;
	/** Local unless given. */
	placement?: Placement;
	/** The queue a queued side's turns were shipped to. */
	queue?: QueueRef | null;
	host: Report['host'];
	/** The third-party agent the side ran; absent or null otherwise. */
	agent?: Report['agent'];
	integrity: Report['integrity'];
	plan: Pick<Plan, 'plan_digest' | 'task_ids'>;
	completion: Report['completion'];
	admission: Report['admission'];
	candidate: Report['candidate'];
	/** One per task of the denominator, in frozen order. */
	results: TaskResult[];
	problems: string[];
	/** Null when nobody looked (a recovered attempt). */
	leaks: AttemptLeaks | null;
	startedAt: string;
	endedAt: string;
	wallMs: number | null;
	/** A supervised host's whole-attempt wall time and per-task sum from its host records; absent for in-process sides. */
	hostWall?: {attempt_wall_ms: number | null; task_sum_ms: number | null};
	/** A resumed attempt: the folder of each earlier attempt it took records from, by attempt id (absent: not resumed). */
	resumedDirs?: Record<string, string> | undefined;
}

/** The one report builder: a run and a recovery given the same results state the same totals and verdict. */
export function buildReport(input: ReportInput): Report {
	const totals = totalsOf(input.results);
	const report = Report.parse({
		schema: reportSchema,
		attempt_id: input.attemptId,
		side: input.side,
		timing: input.timing,
		placement: input.placement ?? 'local',
		// Present only for a queued side: a local report has no such key at all.
		...(input.queue == null ? {} : {queue: input.queue}),
		host: input.host,
		// Present only for an agent side.
		...(input.agent == null ? {} : {agent: input.agent}),
		integrity: input.integrity,
		plan_digest: input.plan.plan_digest,
		completion: input.completion,
		admission: input.admission,
		candidate: input.candidate,
		task_ids: input.plan.task_ids,
		// Checked below one entry at a time: parsed here with the rest, 10,000 entries were held twice (bench/README.md).
		tasks: [],
		totals,
		passed: passedOf(input, totals.failed),
		leak_audit: input.leaks,
		problems: input.problems,
		started_at: input.startedAt,
		ended_at: input.endedAt,
		attempt_wall_ms: input.wallMs,
		// Present only for supervised hosts: an in-process report has no such key at all.
		...(input.hostWall === undefined ? {} : {host_measure: hostMeasure(input.hostWall, input.results)}),
		// Present only when some record was taken from an earlier attempt.
		...resumedFrom(input.results, input.resumedDirs ?? {}),
	});
	const tasks = checkedEntries(input.results);
	// An entry that breaks the schema: the whole report parsed as before, which refuses it with the same error.
	if (tasks === null) return Report.parse({...report, tasks: input.results});
	return {...report, tasks};
}

/** The earlier attempts whose records a resumed attempt took, each with its entries in frozen order. */
function resumedFrom(results: TaskResult[], dirs: Record<string, string>): {resumed_from?: Report['resumed_from']} {
	const sources = new Map<string, string[]>();
	for (const result of results) if (result.resumed_from !== undefined) sources.set(result.resumed_from, [...(sources.get(result.resumed_from) ?? []), result.task_id]);
	if (sources.size === 0) return {};
	return {resumed_from: [...sources].map(([attemptId, entries]) => ({attempt_id: attemptId, dir: dirs[attemptId] ?? null, entries}))};
}

/** The host's measurements beside its claims: a task whose claimed turns or tokens contradict the metering is listed. */
function hostMeasure(wall: NonNullable<ReportInput['hostWall']>, results: TaskResult[]): HostMeasure {
	const brief = (usage: TaskResult['usage'] | undefined) => ({turns: usage?.turns ?? null, total_tokens: usage?.total_tokens ?? null});
	const differences = results
		.filter(result => result.usage_claim != null && result.usage !== null && contradicts(result.usage_claim, result.usage))
		.map(result => ({task_id: result.task_id, metered: brief(result.usage), claimed: brief(result.usage_claim)}));
	const claims = totalsOf(results.map(result => ({...result, usage: result.usage_claim ?? null})));
	return {...wall, usage_source: 'provider-proxy', claimed: {turns: claims.turns, total_tokens: claims.total_tokens}, usage_differences: differences};
}

/**
 * A claim contradicts the metering where both say a number and the numbers differ. A binary that says it does not
 * know its tokens (null) claims nothing false; nor can a token claim be checked against the proxy's own estimate (the
 * provider reported none, and the binary's count is an estimate too). Turns are always counted at the boundary.
 */
function contradicts(claim: Usage, metered: Usage): boolean {
	if (claim.turns !== metered.turns) return true;
	const checkable = claim.total_tokens !== null && metered.total_tokens !== null && metered.token_source !== 'estimated';
	return checkable && claim.total_tokens !== metered.total_tokens;
}

/** Only a finished, admitted attempt with no problem and no failed task passes; an interrupted or recovered one never does. */
function passedOf(input: ReportInput, failed: number): boolean {
	return input.completion === 'finished' && input.admission.admitted && input.problems.length === 0 && failed === 0;
}

/**
 * `report.json` is written once and last: exclusive, so a finished report is never replaced, and durable, since its presence
 * means the attempt finished. Entry by entry: at 10,000 tasks its text is 17 MiB, never held whole (bench/README.md).
 */
export async function writeReport(dir: string, report: Report): Promise<void> {
	await writeJsonInPieces(join(dir, 'report.json'), report, {exclusive: true, durable: true});
}
