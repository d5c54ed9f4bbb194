import {mkdtemp, rm} from 'node:fs/promises';
import {createServer, type Server, type Socket} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {distPath} from '../../../files/install-root.js';
import {graceMs, runInGroup, type GroupRun, type Sandbox} from '../../../process/index.js';
import {readLines, writeLine} from '../../../workers/json-lines.js';
import {RunnerAnswer, runnerLineLimit, type RunnerRequest, type RunnerStart, type RunnerTask, type RunnerTaskRun} from '../../../workers/runner-protocol.js';

/** The runner's own output is diagnostics only; past these it is ended as any child would be. */
const runnerStdoutLimit = 1024 * 1024;
const runnerStderrLimit = 1024 * 1024;
/** Starting node and warming the threads inside the sandbox; a runner that takes longer is not going to start. */
const runnerStartMs = 60_000;

/** One sandboxed task-runner process and its channel, as the supervisor holds them. */
export interface RunnerProcess {
	readonly threads: number;
	/** The runner's answer for this task, or its ending: the supervisor's own deadline holds even if the runner hangs. */
	run(job: RunnerTask['job'], options: {signal: AbortSignal; answerWithinMs: number}): Promise<RunnerTaskRun>;
	/** Tells the runner the attempt's provider service died, so its tasks stop asking it. */
	providerDied(atMs: number): void;
	/** Closes the channel (the runner then exits by itself); its process group is ended after the grace. */
	close(): Promise<void>;
}

interface Launch {
	sandbox: Sandbox;
	/** The runner's whole environment: the caller has removed every secret. */
	env: Record<string, string | undefined>;
	start: Omit<RunnerStart, 'kind'>;
}

interface Waiting {
	resolve(run: RunnerTaskRun): void;
}

/**
 * Starts `node dist/workers/task-runner.js SOCKET` under bubblewrap, through runInGroup, with the socket's folder
 * (a fresh one under the temporary directory) its only writable path beside the sandbox's own. Resolves once the
 * runner's pool is warm; a runner that exits or stays silent first is an error with its stderr.
 */
export async function startRunner(launch: Launch): Promise<RunnerProcess> {
	const dir = await mkdtemp(join(tmpdir(), 'hlab-runner-'));
	const socketPath = join(dir, 'runner.sock');
	const server = createServer();
	await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
	const stop = new AbortController();
	const ended = runInGroup({
		argv: [process.execPath, distPath('workers/task-runner.js'), socketPath],
		cwd: dir,
		env: launch.env,
		extendEnv: false,
		sandbox: {...launch.sandbox, writable: [...launch.sandbox.writable, dir]},
		signal: stop.signal,
		stdoutLimit: runnerStdoutLimit,
		stderrLimit: runnerStderrLimit,
	});
	const discard = async (): Promise<void> => {
		server.close();
		stop.abort();
		await ended;
		await rm(dir, {recursive: true, force: true});
	};
	try {
		const socket = await connection(server, ended);
		// One runner, one connection: nothing else may speak for it.
		server.close();
		return await channel(socket, launch.start, ended, stop, discard);
	} catch (error) {
		await discard();
		throw error;
	}
}

/** The runner's connection, or why it never came. */
async function connection(server: Server, ended: Promise<GroupRun>): Promise<Socket> {
	let timer: NodeJS.Timeout | undefined;
	const connected = new Promise<Socket>(resolve => server.once('connection', resolve));
	const silent = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`the sandboxed task runner did not connect within ${runnerStartMs} ms`)), runnerStartMs);
	});
	try {
		return await Promise.race([connected, silent, ended.then(run => Promise.reject(new Error(`the sandboxed task runner did not start: ${endingOf(run)}`)))]);
	} finally {
		clearTimeout(timer);
	}
}

async function channel(socket: Socket, start: Launch['start'], ended: Promise<GroupRun>, stop: AbortController, discard: () => Promise<void>): Promise<RunnerProcess> {
	const waiting = new Map<number, Waiting>();
	let gone: string | null = null;
	let ready: ((threads: number) => void) | null = null;
	const readied = new Promise<number>(resolve => (ready = resolve));
	const send = (request: RunnerRequest): void => writeLine(socket, request);
	// Whatever ends the runner ends each task still waiting on it, as a crash, and every later one.
	const fail = (why: string): void => {
		gone ??= why;
		for (const one of waiting.values()) one.resolve({kind: 'crash', message: `the sandboxed task runner ended: ${gone}`});
		waiting.clear();
	};
	void ended.then(run => fail(endingOf(run)));
	// A closed channel is most often a runner that died: its ending, when it comes within the grace, says how.
	socket.on('close', () => setTimeout(() => fail('its channel closed'), graceMs).unref());
	socket.on('error', () => undefined);
	readLines(socket, runnerLineLimit, line => {
		const answer = parseAnswer(line);
		if (answer === null) return fail('it sent a message that is not the runner protocol');
		if (answer.kind === 'ready') return ready?.(answer.threads);
		const one = waiting.get(answer.id);
		waiting.delete(answer.id);
		one?.resolve(answer.run);
	}, () => fail(`it sent a line longer than ${runnerLineLimit} bytes`));
	send({kind: 'start', ...start});
	const threads = await Promise.race([readied, ended.then(run => Promise.reject(new Error(`the sandboxed task runner did not start: ${endingOf(run)}`)))]);
	let next = 0;
	return {
		threads,
		run(job, {signal, answerWithinMs}) {
			if (gone !== null) return Promise.resolve({kind: 'crash', message: `the sandboxed task runner ended: ${gone}`});
			const id = next++;
			return new Promise<RunnerTaskRun>(resolve => {
				const timers: NodeJS.Timeout[] = [];
				const settle = (run: RunnerTaskRun): void => {
					for (const timer of timers) clearTimeout(timer);
					signal.removeEventListener('abort', onAbort);
					waiting.delete(id);
					resolve(run);
				};
				// A runner that does not answer past the task's hard deadline (plus a grace for itself) is ended: it is not to be trusted with the workspace any longer.
				const unanswered = (kind: 'deadline' | 'aborted'): void => {
					settle({kind, message: `the sandboxed task runner did not answer within ${graceMs} ms after the task's ${kind === 'deadline' ? 'hard deadline' : 'interruption'}; the runner was ended`});
					stop.abort();
				};
				const onAbort = (): void => {
					send({kind: 'abort', id});
					timers.push(setTimeout(() => unanswered('aborted'), 2 * graceMs));
				};
				waiting.set(id, {resolve: settle});
				timers.push(setTimeout(() => unanswered('deadline'), answerWithinMs + graceMs));
				if (signal.aborted) onAbort();
				else signal.addEventListener('abort', onAbort, {once: true});
				send({kind: 'task', id, job});
			});
		},
		providerDied(atMs) {
			if (gone === null) send({kind: 'provider_died', at_ms: atMs});
		},
		async close() {
			socket.end();
			const exited = await Promise.race([ended.then(() => true), new Promise<false>(resolve => setTimeout(() => resolve(false), graceMs).unref())]);
			if (!exited) stop.abort();
			await discard();
		},
	};
}

function parseAnswer(line: string): RunnerAnswer | null {
	try {
		const parsed = RunnerAnswer.safeParse(JSON.parse(line));
		return parsed.success ? parsed.data : null;
	} catch {
		return null;
	}
}

/** How the runner process ended, in a few words, with the start of its stderr. */
function endingOf(run: GroupRun): string {
	const {record} = run;
	const how = record.failure_message ?? (record.signal !== null ? `killed by ${record.signal}` : `exited with status ${record.exit_code}`);
	const stderr = run.stderr?.toString('utf8').trim().split('\n').slice(0, 3).join(' | ') ?? '';
	return stderr === '' ? how : `${how}: ${stderr}`;
}
