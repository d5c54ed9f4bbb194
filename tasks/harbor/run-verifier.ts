import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {publishedMemoryLimit, runInGroup, sandboxFor, type ProcessRecord, type Sandbox} from '../../process/index.js';
import type {Grade} from '../task-definition.js';
import type {HarborTask} from './harbor-task.js';
import {readReward} from './read-reward.js';
import {verifierEnvOf} from './task-config.js';

export interface VerifierInput {
	task: HarborTask;
	workspace: string;
	/** A folder of the task's evidence that does not exist yet: made here, it is the verifier's /logs/verifier. */
	logsDir: string;
	/** The attempt's paths the verifier must not see besides those the attempt's sandbox hides (its evidence, its runtime state). */
	hidden: string[];
	signal: AbortSignal;
}

/** The verifier's run: its verdict when it gave a reward, else the grader's failure; its process record either way. */
export type VerifierRun = {grade: Grade; reward: number; record: ProcessRecord} | {problem: string; record: ProcessRecord};

const outputLimit = 1024 * 1024;
const bash = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

/**
 * Runs tests/test.sh after the agent ended, as a supervised process under its own deadline, in a fresh view: the
 * machine's root read-only, the workspace at the WORKDIR, tests/ at /tests (read-only), /logs/verifier a new folder of
 * the evidence, no network. Only that folder's reward.txt, read here, decides; a reward of 1 passes.
 */
export async function runVerifier(input: VerifierInput): Promise<VerifierRun> {
	// Made fresh, never reused: nothing the agent could have placed is in it.
	mkdirSync(input.logsDir);
	const run = await runInGroup({
		argv: [bash, '/tests/test.sh'],
		cwd: input.workspace,
		env: verifierEnvironment(input.task),
		extendEnv: false,
		deadlineMs: input.task.verifier_timeout_ms,
		memoryLimitBytes: input.task.memory_bytes ?? publishedMemoryLimit(),
		cpuLimit: input.task.cpus,
		stdoutLimit: outputLimit,
		stderrLimit: outputLimit,
		signal: input.signal,
		sandbox: verifierView(input),
	});
	const {record} = run;
	// Beside /logs/verifier, not in it: what the verifier printed is evidence, never a reward.
	writeFileSync(`${input.logsDir}-stdout.txt`, run.stdout ?? '');
	writeFileSync(`${input.logsDir}-stderr.txt`, run.stderr ?? '');
	const failed = runProblem(record, input.task);
	if (failed !== null) return {problem: failed, record};
	const read = readReward(input.logsDir);
	if ('problem' in read) return {problem: `${read.problem} (exit code ${record.exit_code})`, record};
	const {reward} = read;
	return {reward, record, grade: {passed: reward === 1, score: reward >= 0 && reward <= 1 ? reward : null, details: `reward ${reward}${reward === 1 ? '' : ' (1 passes)'}`}};
}

/**
 * Nothing of the supervisor's environment (a provider key, its settings) reaches the verifier, which may run the agent's
 * code: a search path, a home in the private /tmp, the locale, [verifier] env, and the `HLAB_*=1` markers (the
 * attempt's, a tree's) by which the supervisor finds whatever it leaves running.
 */
function verifierEnvironment(task: HarborTask): Record<string, string> {
	const markers = Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('HLAB_') && entry[1] === '1');
	const own = verifierEnvOf(readFileSync(join(task.dir, 'task.toml'), 'utf8'));
	return {...Object.fromEntries(markers), PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp', LANG: process.env.LANG ?? 'C.UTF-8', ...own};
}

function verifierView(input: VerifierInput): Sandbox {
	const attempt = sandboxFor('/')?.hidden ?? [];
	return {
		writable: [],
		readable: [],
		hidden: [...new Set([...attempt, ...input.hidden, input.task.dir])],
		network: false,
		mounts: [
			{source: input.workspace, target: input.task.workdir, writable: true},
			{source: join(input.task.dir, 'tests'), target: '/tests', writable: false},
			{source: input.logsDir, target: '/logs/verifier', writable: true},
		],
	};
}

function runProblem(record: ProcessRecord, task: HarborTask): string | null {
	if (record.failure === 'timeout') return `the verifier timed out after ${task.verifier_timeout_ms} ms ([verifier] timeout_sec)`;
	if (record.failure === 'aborted') return 'the verifier was cancelled';
	if (record.survivors.length > 0) return `processes survived the verifier: ${record.survivors.join(' ')}`;
	if (record.failure !== null && record.failure !== 'stdout_limit' && record.failure !== 'stderr_limit') return `the verifier failed (${record.failure}): ${record.failure_message ?? ''}`.trim();
	return null;
}
