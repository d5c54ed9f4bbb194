import {existsSync, readFileSync} from 'node:fs';
import {basename, join, resolve} from 'node:path';
import type {HarborTask} from './harbor-task.js';
import {harborDefaultTimeoutSec, memoryBytesOf, parseTaskConfig} from './task-config.js';
import {readTaskEnvironment} from './task-environment.js';

/** What the plan gives instead of task.toml: the agent's deadline and the memory limit, when frozen with them. */
export interface ReadOptions {
	/** `--timeout` at freeze: overrides [agent] timeout_sec. */
	agentDeadlineMs: number | null;
	/** `--memory-limit` at freeze: overrides [environment] memory_mb. */
	memoryBytes: number | null;
}

/** A task read as a plan records it, or every reason it is refused (the caller names the task). */
export type ReadTask = {ok: true; task: HarborTask} | {ok: false; problems: string[]};

/** Ids are folder names the evidence can use as they are. */
const safeId = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Reads one Harbor task folder: its instruction, task.toml, Dockerfile and verifier, checked against this machine. */
export function readHarborTask(folder: string, options: ReadOptions): ReadTask {
	const dir = resolve(folder);
	const id = basename(dir);
	const problems: string[] = [];
	if (!safeId.test(id)) problems.push(`the folder name ${JSON.stringify(id)} cannot be a task id (letters, digits, . _ -)`);
	if (!existsSync(join(dir, 'instruction.md'))) problems.push('instruction.md is missing');
	if (!existsSync(join(dir, 'tests', 'test.sh'))) problems.push('tests/test.sh (the verifier) is missing');
	const config = existsSync(join(dir, 'task.toml')) ? parseTaskConfig(readFileSync(join(dir, 'task.toml'), 'utf8')) : {ok: false as const, problem: 'task.toml is missing'};
	if (!config.ok) problems.push(config.problem);
	const environment = readTaskEnvironment(dir);
	if (!environment.ok) problems.push(...environment.problems);
	if (problems.length > 0 || !config.ok || !environment.ok) return {ok: false, problems};
	const seconds = (value: number | undefined): number => Math.round((value ?? harborDefaultTimeoutSec) * 1000);
	return {ok: true, task: {
		id,
		dir,
		workdir: environment.environment.workdir,
		copies: environment.environment.copies,
		agent_timeout_ms: options.agentDeadlineMs ?? seconds(config.config.agent?.timeout_sec),
		verifier_timeout_ms: seconds(config.config.verifier?.timeout_sec),
		cpus: config.config.environment?.cpus ?? null,
		memory_bytes: options.memoryBytes ?? memoryBytesOf(config.config),
	}};
}

/** The task's instruction: the agent's prompt, as Harbor gives it, without the blank lines around it (agents trim them). */
export function instructionOf(task: Pick<HarborTask, 'dir'>): string {
	return readFileSync(join(task.dir, 'instruction.md'), 'utf8').trim();
}
