import {readFile, writeFile} from 'node:fs/promises';
import {runInGroup} from '../../process/index.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {evalEntry} from './install-copy.js';
import {join} from 'node:path';
import type {Test} from 'tap';
import {runAttempt, type AttemptOutcome} from '../../supervisor/attempt/run-attempt.js';
import {buildPlan, writePlan} from '../../supervisor/plan/freeze.js';
import type {TotalBudget} from '../../supervisor/plan/plan-schema.js';
import {installRoot} from '../../files/install-root.js';
import {tempDir} from '../temp-dir.js';

export const repeatedObservation = join(installRoot, 'examples', 'candidates', 'repeated-observation.ts');

/** A scratch folder removed when the test ends. */
export const scratch = (t: Test): Promise<string> => tempDir(t, 'hlab-e2e-');

export interface FreezeInput {
	dir: string;
	tasks: string;
	policy?: object;
	cwd?: string;
	name?: string;
	repeat?: number;
	/** The plan's step budget (12 unless said). */
	maxSteps?: number;
	/** A response script for the scripted provider. */
	responsesPath?: string;
	/** The plan's per-task limits (the defaults unless said). */
	workspaceLimitBytes?: number;
	memoryLimitBytes?: number;
	/** The attempt's total budget (none unless said). */
	totalBudget?: TotalBudget;
}

/** Freezes a scripted-provider plan in `dir` and returns its path. */
export async function freeze(input: FreezeInput): Promise<string> {
	const policyPath = join(input.dir, `${input.name ?? 'plan'}-policy.json`);
	await writeFile(policyPath, JSON.stringify(input.policy ?? {concurrency: 2}));
	const plan = await buildPlan({
		provider: {kind: 'scripted', model: 'reference'}, selection: input.tasks, repeat: input.repeat, maxSteps: input.maxSteps ?? 12, deadlineMs: 60_000,
		policyPath, controllerPath: null, configPath: null, cwd: input.cwd ?? input.dir, responsesPath: input.responsesPath ?? null,
		...(input.workspaceLimitBytes === undefined ? {} : {workspaceLimitBytes: input.workspaceLimitBytes}),
		...(input.memoryLimitBytes === undefined ? {} : {memoryLimitBytes: input.memoryLimitBytes}),
		...(input.totalBudget === undefined ? {} : {totalBudget: input.totalBudget}),
	});
	const path = join(input.dir, `${input.name ?? 'plan'}.json`);
	await writePlan(path, plan);
	return path;
}

export function attempt(planPath: string, artifacts: string, candidatePath: string | null = null, cwd?: string): Promise<AttemptOutcome> {
	return runAttempt({planPath, artifacts, candidatePath, keepWorkdirs: false, configPath: null, quiet: true, cwd: cwd ?? process.cwd()});
}

/** Runs an attempt as `hlab eval --plan` in its own process, as a user would, and reads its report. */
export async function attemptByCli(planPath: string, artifacts: string, candidatePath: string | null = null): Promise<AttemptOutcome> {
	const argv = [process.execPath, evalEntry(), 'eval', '--plan', planPath, '--artifacts', artifacts, '--json', ...(candidatePath === null ? [] : ['--candidate', candidatePath])];
	const run = await runInGroup({argv, deadlineMs: 180_000});
	if (run.record.exit_code !== 0 && run.record.exit_code !== 1) throw new Error(`hlab eval failed: ${run.stderr?.toString() ?? ''}`);
	return {dir: artifacts, report: Report.parse(JSON.parse(await readFile(join(artifacts, 'report.json'), 'utf8')))};
}
