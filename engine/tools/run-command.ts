import {existsSync} from 'node:fs';
import type {GroupRun} from '../../process/index.js';
import type {Deadline} from '../deadline.js';
import {EngineError} from '../engine-error.js';
import {ToolError} from './tool-error.js';

/** Process supervision (execa and the /proc scans) is loaded by the first command, not by every agent thread. */
const supervision = (): Promise<typeof import('../../process/index.js')> => import('../../process/index.js');

/** Bytes of stdout (and of stderr) a foreground command may write before it is ended. */
export const commandOutputLimit = 64 * 1024;
export const defaultCommandTimeoutMs = 60_000;
const shell = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

/** What a command runs with: the workspace, the session's deadline, and who to tell about new process groups. */
export interface CommandContext {
	root: string;
	deadline: Deadline;
	/** Changes to the inherited environment (the API key variable is removed here). */
	env: Record<string, string | undefined>;
	onProcessGroup?: (pid: number) => void;
	jobs: BackgroundJobs;
}

export interface CommandResult {
	content: string;
	is_error: boolean;
	/** The supervisor's process record, for the journal. */
	run: GroupRun | null;
}

export async function runCommandTool(context: CommandContext, command: string, timeoutSeconds: number | undefined, background: boolean): Promise<CommandResult> {
	if (command.trim() === '') throw new ToolError('the command is empty');
	if (timeoutSeconds !== undefined && !(timeoutSeconds > 0)) throw new ToolError('timeout_seconds must be a positive number');
	context.deadline.throwIfEnded();
	if (background) {
		const job = await context.jobs.start(context, command);
		return {
			content: `started background job ${job.id} (pid ${job.pid}); its stdout and stderr are discarded unless the command redirects them; it is ended when the session ends`,
			is_error: false,
			run: null,
		};
	}
	const wanted = timeoutSeconds === undefined ? defaultCommandTimeoutMs : Math.round(timeoutSeconds * 1000);
	const deadlineMs = Math.max(1, Math.min(wanted, Math.floor(context.deadline.remainingMs())));
	const {runInGroup, sandboxFor, publishedMemoryLimit, publishedCpuLimit} = await supervision();
	const run = await runInGroup({
		argv: [shell, '-c', command],
		cwd: context.root,
		env: context.env,
		deadlineMs,
		memoryLimitBytes: publishedMemoryLimit(),
		cpuLimit: publishedCpuLimit(),
		stdoutLimit: commandOutputLimit,
		stderrLimit: commandOutputLimit,
		signal: context.deadline.signal,
		onSpawn: pid => context.onProcessGroup?.(pid),
		sandbox: sandboxFor(context.root),
	});
	// The session's own deadline or a cancellation ends the loop, not just this command.
	context.deadline.throwIfEnded();
	checkSupervision(run);
	return {content: describeRun(run, deadlineMs), is_error: run.record.failure !== null, run};
}

/** A process that could not start or outlived its cleanup is a broken machine, not a model mistake. */
function checkSupervision(run: GroupRun): void {
	if (run.record.failure === 'spawn') throw new EngineError('tool', run.record.failure_message ?? 'the shell could not be started');
	if (run.record.survivors.length > 0) throw new EngineError('tool', `processes survived the cleanup of a command: ${run.record.survivors.join(' ')}`);
}

/** The observation: exit status, then stdout and stderr; no timings, so equal runs read equal. */
export function describeRun(run: GroupRun, deadlineMs: number): string {
	const {record} = run;
	const lines: string[] = [];
	if (record.failure === 'timeout') lines.push(`timed out after ${deadlineMs} ms; the command's process group was ended`);
	else if (record.failure === 'stdout_limit' || record.failure === 'stderr_limit') lines.push(`${record.failure === 'stdout_limit' ? 'stdout' : 'stderr'} exceeded ${commandOutputLimit} bytes; the command was ended and its output is cut`);
	lines.push(record.exit_code !== null ? `exit_code: ${record.exit_code}` : `signal: ${record.signal ?? 'unknown'}`);
	lines.push('--- stdout ---', (run.stdout ?? Buffer.alloc(0)).toString('utf8'));
	lines.push('--- stderr ---', (run.stderr ?? Buffer.alloc(0)).toString('utf8'));
	return lines.join('\n');
}

interface Job {
	id: number;
	pid: number;
	command: string;
	run: Promise<GroupRun>;
}

/** Commands started with background=true: each in its own process group, all ended when the session ends. */
export class BackgroundJobs {
	private readonly jobs: Job[] = [];
	private readonly controller = new AbortController();

	async start(context: CommandContext, command: string): Promise<{id: number; pid: number}> {
		let spawned!: (pid: number) => void;
		const pid = new Promise<number>(resolve => (spawned = resolve));
		const {runInGroup, sandboxFor, publishedMemoryLimit, publishedCpuLimit} = await supervision();
		const run = runInGroup({
			argv: [shell, '-c', command],
			cwd: context.root,
			env: context.env,
			memoryLimitBytes: publishedMemoryLimit(),
		cpuLimit: publishedCpuLimit(),
			deadlineMs: Math.max(1, Math.floor(context.deadline.remainingMs())),
			stdout: {kind: 'ignore'},
			stderr: {kind: 'ignore'},
			signal: AbortSignal.any([context.deadline.signal, this.controller.signal]),
			onSpawn: groupPid => {
				context.onProcessGroup?.(groupPid);
				spawned(groupPid);
			},
			sandbox: sandboxFor(context.root),
		});
		const started = await Promise.race([pid, run.then(result => result)]);
		if (typeof started !== 'number') {
			checkSupervision(started);
			throw new ToolError(`the background command could not be started: ${started.record.failure_message ?? 'unknown reason'}`);
		}
		const job = {id: this.jobs.length + 1, pid: started, command, run};
		this.jobs.push(job);
		return {id: job.id, pid: started};
	}

	/** Ends every job still running and waits until each tree is gone. */
	async stopAll(): Promise<{id: number; command: string; run: GroupRun}[]> {
		this.controller.abort();
		return Promise.all(this.jobs.map(async job => ({id: job.id, command: job.command, run: await job.run})));
	}
}
