import type {z} from 'zod';
import {distPath} from '../files/install-root.js';
import {runInGroup, type ProcessRecord} from '../process/index.js';
import type {EvaluationJob} from './evaluation-protocol.js';

/** Bounds of one evaluation process: collectors and graders are quick observers. */
export interface EvaluationLimits {
	deadlineMs: number;
	stdoutLimit: number;
	stderrLimit: number;
}

export const defaultEvaluationLimits: EvaluationLimits = {deadlineMs: 30_000, stdoutLimit: 4 * 1024 * 1024, stderrLimit: 256 * 1024};

/** What an evaluation process answered, or why it answered nothing usable; its process record either way. */
export type EvaluationRun<T> =
	| {ok: true; answer: T; process: ProcessRecord}
	| {ok: false; problem: string; process: ProcessRecord};

/** Runs one job in its own supervised process (deadline, byte limits, the whole tree ended) and parses the answer. */
export async function runEvaluation<T>(job: EvaluationJob, answer: z.ZodType<T>, options: {cwd: string; limits?: EvaluationLimits}): Promise<EvaluationRun<T>> {
	const limits = options.limits ?? defaultEvaluationLimits;
	const run = await runInGroup({
		argv: [process.execPath, distPath('cartridges/evaluation-main.js')],
		cwd: options.cwd,
		input: JSON.stringify(job),
		deadlineMs: limits.deadlineMs,
		stdoutLimit: limits.stdoutLimit,
		stderrLimit: limits.stderrLimit,
	});
	const {record} = run;
	const stderr = (run.stderr?.toString() ?? '').trim().split('\n').slice(-3).join(' | ');
	if (record.failure !== null) return {ok: false, problem: `the evaluation process failed (${record.failure}): ${record.failure_message ?? ''}`.trim(), process: record};
	if (record.exit_code !== 0) return {ok: false, problem: `the evaluation process exited with ${record.exit_code ?? record.signal}${stderr ? `: ${stderr}` : ''}`, process: record};
	let value: unknown;
	try {
		// The answer is the last line, so stray output written before it does not break it.
		value = JSON.parse((run.stdout?.toString() ?? '').trimEnd().split('\n').at(-1) ?? '');
	} catch {
		return {ok: false, problem: 'the evaluation process printed no JSON answer', process: record};
	}
	const parsed = answer.safeParse(value);
	if (!parsed.success) return {ok: false, problem: `the evaluation process answered out of protocol: ${parsed.error.issues[0]?.message ?? 'invalid'}`, process: record};
	return {ok: true, answer: parsed.data, process: record};
}
