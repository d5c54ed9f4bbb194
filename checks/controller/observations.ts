import {randomUUID} from 'node:crypto';
import {cp, mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {ControllerTask, ScoreResult} from '../../controller-protocol/index.js';
import type {ExecutionOutcome} from '../../engine/outcome.js';
import {taskDirName} from '../../supervisor/evidence/evidence-dir.js';
import {Report, reportSchema, type TaskResult} from '../../supervisor/attempt/report/report-schema.js';
import {Ledger, totalsOf} from '../../supervisor/attempt/index.js';
import {createAttemptKey} from '../../supervisor/evidence/seal/index.js';
import type {ControllerClient} from '../../supervisor/controller/index.js';
import {digestBytes} from '../../files/digest.js';
import type {Plan} from '../../supervisor/plan/plan-schema.js';
import {writeJson} from '../../files/write-json.js';

export interface ObservationSide {
	/** The attempt folder to write (plan.json, report.json, tasks/). */
	dir: string;
	label: 'baseline' | 'candidate';
	/** The candidate source the observations are attributed to; null for the baseline. */
	candidate: string | null;
	/** Model turns each synthetic execution reports. */
	turns: number;
	/** True writes a `passed` verdict for every task whatever the independent grader says. */
	fabricate: boolean;
}

/**
 * Writes a synthetic attempt: each task's workspace set up by the pinned controller and left as a do-nothing
 * execution would leave it, a one-message transcript, an outcome claiming `done`, and a report whose verdicts
 * come from the pinned controller's `score`, or, when fabricating, are all `passed`. No model is called.
 */
export async function writeObservations(side: ObservationSide, plan: Plan, planBytes: Buffer, tasks: ControllerTask[], client: ControllerClient, fresh: FreshWorkspaces): Promise<string> {
	await mkdir(side.dir, {recursive: true});
	await writeFile(join(side.dir, 'plan.json'), planBytes);
	// Sealed as an attempt's ledger is, so that compare holds the synthetic report to it as to any other.
	const attemptId = `synthetic-${side.label}-${randomUUID()}`;
	const ledger = new Ledger(join(side.dir, 'ledger.jsonl'), attemptId, createAttemptKey(attemptId).key);
	const results: TaskResult[] = [];
	for (const [index, id] of plan.task_ids.entries()) {
		const task = tasks.find(item => item.id === id);
		if (task === undefined) throw new Error(`the plan's task ${id} is not in its controller's task list`);
		const rel = taskDirName(index, id, plan.task_ids.length);
		const workspace = join(side.dir, rel, 'workspace');
		await mkdir(join(side.dir, rel), {recursive: true});
		const prepared = await fresh.prepare(task, client);
		await cp(prepared.workspace, workspace, {recursive: true});
		const messages = [{role: 'assistant', content: `synthetic observation of ${side.label}: the execution ended without changing the workspace`}];
		await writeFile(join(side.dir, rel, 'messages.jsonl'), `${messages.map(message => JSON.stringify(message)).join('\n')}\n`);
		const usage = {turns: side.turns, input_tokens: 100 * side.turns, output_tokens: 10 * side.turns, cache_read_tokens: 0, cache_write_tokens: 0, total_tokens: 110 * side.turns, cost_usd: null};
		const outcome: ExecutionOutcome = {status: 'done', reason: null, message: null, steps: side.turns, usage, final_text: 'done (synthetic)', stopped_by: null, time: null, infrastructure: null};
		const score = prepared.score;
		const grade = side.fabricate ? {passed: true, score: 1, details: 'fabricated: the report claims success'} : {passed: score.passed, score: score.score ?? null, details: score.details};
		const result: TaskResult = {
			index, task_id: id, status: grade.passed ? 'passed' : 'failed', reason: null,
			message: grade.passed ? null : `the independent grader did not pass the workspace: ${grade.details}`,
			grade, outcome, usage, wall_ms: 1000,
			evidence: {result: `${rel}/result.json`, workspace: `${rel}/workspace`, messages: `${rel}/messages.jsonl`},
		};
		await writeJson(join(side.dir, rel, 'result.json'), result);
		await ledger.append(result);
		results.push(result);
	}
	const source = side.candidate === null ? null : await readFile(side.candidate);
	const totals = totalsOf(results);
	const now = new Date().toISOString();
	const report = Report.parse({
		schema: reportSchema,
		attempt_id: attemptId,
		side: side.label,
		plan_digest: plan.plan_digest,
		completion: 'finished',
		admission: {admitted: true, differences: []},
		candidate: source === null ? null : {source_path: side.candidate, source_digest: digestBytes(source), code_digest: digestBytes(source), sdk_digest: digestBytes('synthetic: not compiled')},
		task_ids: plan.task_ids,
		tasks: results,
		totals,
		passed: totals.failed === 0,
		problems: [],
		started_at: now,
		ended_at: now,
		attempt_wall_ms: 1000 * results.length,
	});
	const path = join(side.dir, 'report.json');
	await writeJson(path, report);
	return path;
}

/**
 * One workspace per task, set up by the pinned controller and scored as a do-nothing execution leaves it.
 * Every side's observation copies it, so each controller call happens once per task, not once per side.
 */
export class FreshWorkspaces {
	readonly #prepared = new Map<string, {workspace: string; score: ScoreResult}>();

	constructor(readonly dir: string) {}

	async prepare(task: ControllerTask, client: ControllerClient): Promise<{workspace: string; score: ScoreResult}> {
		const known = this.#prepared.get(task.id);
		if (known !== undefined) return known;
		const workspace = join(this.dir, task.id);
		await mkdir(workspace, {recursive: true});
		const setup = await client.call('setup', {task, workspace});
		if (!setup.ok) throw new Error(`the pinned controller could not set up ${task.id}: ${setup.error.message}`);
		const messages = [{role: 'assistant', content: 'synthetic observation: the execution ended without changing the workspace'}];
		const score = await client.call('score', {task, workspace, messages, result: null});
		if (!score.ok) throw new Error(`the pinned controller could not score ${task.id}: ${score.error.message}`);
		const prepared = {workspace, score: score.value};
		this.#prepared.set(task.id, prepared);
		return prepared;
	}
}
