import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {z} from 'zod';
import {AgentIdentity} from '../../agents/agent-identity.js';
import {ProcessRecord} from '../../process/process-record.js';
import {taskDirName} from '../evidence/evidence-dir.js';
import type {SideTiming} from '../host/index.js';
// The timing's own file, not the folder's index.ts: a comparison reads this and runs no host.
import {taskSum} from '../host/supervised-timing.js';
import {AgentTaskRecord} from './agent-task-record.js';

/** The fields of a report this needs; the report format itself belongs to the attempt runner. */
const ReportView = z.object({plan_digest: z.string(), task_ids: z.array(z.string()), agent: AgentIdentity.nullable().optional()}).loose();

/**
 * An agent side's wall times, read only from the supervisor's own records in its evidence (each task's process.json
 * and agent-task.json), after checking each is this agent's launch for that task. Null: the report ran no agent.
 */
export async function readAgentTiming(reportPath: string): Promise<SideTiming | string | null> {
	let report: z.infer<typeof ReportView>;
	try {
		report = ReportView.parse(JSON.parse(await readFile(reportPath, 'utf8')));
	} catch (error) {
		return `cannot read ${reportPath}: ${(error as Error).message}`;
	}
	const agent = report.agent ?? null;
	if (agent === null) return null;
	const read = await readAgentTasks(dirname(reportPath), report.task_ids, agent);
	if (typeof read === 'string') return read;
	return {
		report: reportPath,
		host_dir: dirname(reportPath),
		binary_digest: agent.installed_digest ?? agent.config_digest,
		tasks: read.tasks,
		wall_ms: taskSum(read.tasks),
		attempt_wall_ms: read.attemptWallMs,
		complete: read.tasks.every(task => task.wall_ms !== null),
	};
}

/**
 * The whole attempt's wall time of an agent side as the supervisor measured it (first launch started to last launch
 * ended, monotonic), with the per-task sum beside it: what its report states, as a host side's does.
 */
export async function readAgentWall(evidence: string, taskIds: string[], agent: AgentIdentity): Promise<{attempt_wall_ms: number | null; task_sum_ms: number | null}> {
	const read = await readAgentTasks(evidence, taskIds, agent);
	if (typeof read === 'string') return {attempt_wall_ms: null, task_sum_ms: null};
	const launched = read.tasks.filter(task => task.wall_ms !== null);
	return {attempt_wall_ms: read.attemptWallMs, task_sum_ms: launched.length === 0 ? null : launched.reduce((sum, task) => sum + task.wall_ms!, 0)};
}

/** Each task's launch in frozen order (null wall: it never launched), or a sentence naming a record that does not check out. */
async function readAgentTasks(evidence: string, taskIds: string[], agent: AgentIdentity): Promise<{tasks: SideTiming['tasks']; attemptWallMs: number | null} | string> {
	const tasks: SideTiming['tasks'] = [];
	const spans: Array<{started: number; ended: number}> = [];
	for (const [index, id] of taskIds.entries()) {
		const dir = join(evidence, taskDirName(index, id, taskIds.length));
		if (!existsSync(join(dir, 'agent-task.json'))) {
			tasks.push({task_id: id, wall_ms: null});
			continue;
		}
		const checked = await checkedTask(dir, id, agent);
		if (typeof checked === 'string') return checked;
		tasks.push({task_id: id, wall_ms: checked.wall_ms});
		spans.push({started: checked.started_ms, ended: checked.ended_ms});
	}
	const attemptWallMs = spans.length === 0 ? null : Math.max(...spans.map(span => span.ended)) - Math.min(...spans.map(span => span.started));
	return {tasks, attemptWallMs};
}

/** One task's records: this agent, this task, and a process record that agrees with the verdict on the wall time. */
async function checkedTask(dir: string, id: string, agent: AgentIdentity): Promise<AgentTaskRecord | string> {
	let record: ProcessRecord;
	let verdict: AgentTaskRecord;
	try {
		record = ProcessRecord.parse(JSON.parse(await readFile(join(dir, 'process.json'), 'utf8')));
		verdict = AgentTaskRecord.parse(JSON.parse(await readFile(join(dir, 'agent-task.json'), 'utf8')));
	} catch (error) {
		return `${dir}: unreadable agent records: ${(error as Error).message}`;
	}
	if (verdict.task_id !== id || JSON.stringify(verdict.agent) !== JSON.stringify(agent)) return `${dir}/agent-task.json does not match the side's task or agent`;
	if (JSON.stringify(record.argv) !== JSON.stringify(verdict.argv) || Math.abs(record.wall_ms - verdict.wall_ms) > 1e-6) return `${dir}: process.json and agent-task.json disagree on the launch or its wall time`;
	if (verdict.ended_ms - verdict.started_ms < record.wall_ms - 1) return `${dir}/agent-task.json: the launch's span is shorter than its process record's wall time`;
	return verdict;
}
