import {describeIntegrity} from './integrity-label.js';
import type {Report, TaskResult} from './report-schema.js';

/** The text printed after an attempt: the verdict, where the evidence is, whether it was contained, totals (unknown said as such), and every failure. */
export function reportSummary(dir: string, report: Report): string {
	const lines = [
		`${report.side} attempt ${report.completion} (${placedOn(report)}${report.timing}${ranWith(report)}): ${report.totals.passed}/${report.totals.tasks} passed${report.passed ? '' : ' (attempt not passed)'}`,
		`  evidence ${dir}; report ${dir}/report.json`,
		`  integrity: ${describeIntegrity(report.integrity)}`,
		`  turns ${report.totals.turns ?? 'unknown'}, tokens ${report.totals.total_tokens ?? 'unknown'}, task wall ${report.totals.wall_ms === null ? 'unknown' : `${Math.round(report.totals.wall_ms)} ms`}`,
	];
	for (const source of report.resumed_from ?? []) lines.push(`  resumed: ${source.entries.length} of ${report.totals.tasks} entries taken from attempt ${source.attempt_id}${source.dir === null ? '' : ` (${source.dir})`}, sealed there`);
	if (!report.admission.admitted) lines.push('  admission rejected:', ...report.admission.differences.map(line => `    - ${line}`));
	lines.push(...failuresOf(report.tasks));
	for (const problem of report.problems) lines.push(`  problem: ${problem}`);
	const leaks = report.leak_audit;
	if (leaks && leaks.leaked.length > 0) {
		const named = leaks.leaked.slice(0, 5).map(leak => `${leak.pid} (${leak.comm ?? '?'})`).join(', ');
		lines.push(`  leaks: ended ${leaks.leaked.length} process(es) that outlived their task [${leaks.backend}]: ${named}${leaks.leaked.length > 5 ? ', ...' : ''}`);
	}
	return lines.join('\n');
}

/** How many ids a line that stands for several tasks names before it counts the rest. */
const namedTasks = 5;

/**
 * The failed tasks, in order; tasks that failed for one reason with one message (an interruption, a refusal before the
 * tasks) are one line that names them, not one identical line per task.
 */
function failuresOf(tasks: TaskResult[]): string[] {
	const groups = new Map<string, TaskResult[]>();
	for (const task of tasks) {
		if (task.status !== 'failed') continue;
		const key = task.reason === null ? `graded ${task.index}` : JSON.stringify([task.reason, task.message]);
		groups.set(key, [...(groups.get(key) ?? []), task]);
	}
	return [...groups.values()].flatMap(group => (group.length === 1 ? failureLines(group[0]!) : sharedFailureLines(group)));
}

function sharedFailureLines(group: TaskResult[]): string[] {
	const ids = group.slice(0, namedTasks).map(task => task.task_id).join(', ');
	const more = group.length > namedTasks ? ` and ${group.length - namedTasks} more` : '';
	const [line, ...rest] = failureLines({...group[0]!, task_id: `${group.length} tasks (${ids}${more})`});
	return [line!, ...rest];
}

/** A failed task on one line; a grader's verdict as one indented line per check, never glued onto the task's line. */
function failureLines(task: TaskResult): string[] {
	if (task.reason === null && task.grade !== null) {
		const checks = task.grade.details.split('\n').filter(line => line.trim() !== '');
		return [`  ${task.task_id}: failed (graded): the independent grader did not pass the workspace`, ...checks.map(line => `      ${line}`)];
	}
	const [first = '', ...rest] = (task.message ?? '').split('\n');
	return [`  ${task.task_id}: failed (${task.reason ?? 'graded'}) ${first}`.trimEnd(), ...rest.filter(line => line.trim() !== '').map(line => `      ${line}`)];
}

/** A queued side names its queue before the timing its nodes measured; a local one says only the timing. */
function placedOn(report: Report): string {
	if (report.placement !== 'queue') return '';
	if (report.queue === undefined) return 'queue, ';
	return `queue ${report.queue.name} on ${report.queue.redis}, ${report.queue.auth === 'none' ? 'queue_auth none (unauthenticated: --insecure-queue), ' : ''}`;
}

/** The text printed after `--recover`: how much of the denominator had been recorded, and what was killed. */
export function recoverySummary(dir: string, report: Report, killed: number[]): string {
	const recorded = report.tasks.filter(task => task.reason !== 'unfinished').length;
	return [
		`recovered ${dir}: ${recorded}/${report.tasks.length} tasks were recorded, the rest failed as unfinished`,
		`  ${report.totals.passed} passed, ${report.totals.failed} failed; report ${dir}/report.json`,
		killed.length > 0 ? `  killed surviving processes: ${killed.join(', ')}` : '  no process of the attempt survived',
	].join('\n');
}

/** What a supervised side launched: the host executable, or the agent (its adapter and package). */
function ranWith(report: Report): string {
	if (report.host !== null) return ` ${report.host.launched}`;
	const agent = report.agent ?? null;
	if (agent === null) return '';
	return ` agent ${agent.adapter}${agent.package === null ? '' : ` ${agent.package.name}@${agent.package.version}`}`;
}
