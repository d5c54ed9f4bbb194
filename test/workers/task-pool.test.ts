import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t, {type Test} from 'tap';
import {compileCandidate, type CandidateSnapshot} from '../../engine/index.js';
import {TaskPool, type PoolRun} from '../../workers/task-pool.js';
import {graceMs} from '../../process/grace.js';
import {isRunning, readStat} from '../../process/proc-table.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

/** What the stub has seen: requests in flight at most, and the pid each background job reported. */
interface Stub {
	url: string;
	maxInFlight: number;
	requests: Map<string, number>;
	backgroundPids: number[];
	held: Array<() => void>;
}

/**
 * A plain OpenAI-compatible endpoint on loopback. The task's prompt says how it answers: `delay=MS` answers `done`
 * after MS, `hang` never answers, `background` first starts `sleep 300` in the background and then never answers,
 * `escape` first runs a command that leaves a `sleep 300` in a session of its own and then answers `done`.
 */
async function stub(t: Test): Promise<Stub> {
	const seen: Stub = {url: '', maxInFlight: 0, requests: new Map(), backgroundPids: [], held: []};
	let inFlight = 0;
	const server = createServer((request, response) => {
		inFlight += 1;
		seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
		response.on('close', () => (inFlight -= 1));
		readBody(request).then(body => answer(seen, body, response));
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	t.teardown(() => new Promise<void>(resolve => {
		server.close(() => resolve());
		server.closeAllConnections();
	}));
	seen.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
	return seen;
}

async function readBody(request: IncomingMessage): Promise<any> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function answer(seen: Stub, body: any, response: ServerResponse): void {
	const messages = body.messages as Array<{role: string; content: string | null}>;
	const prompt = messages.find(message => message.role === 'user')?.content ?? '';
	const id = /task:(\S+)/.exec(prompt)?.[1] ?? 'unknown';
	seen.requests.set(id, (seen.requests.get(id) ?? 0) + 1);
	const tool = messages.find(message => message.role === 'tool');
	if (prompt.includes('background') && tool === undefined) return reply(response, 'run_command', {command: 'sleep 300', background: true});
	// Leaves its own process group (and so the command's end) behind, with the task's marker in its environment.
	if (prompt.includes('escape') && tool === undefined) return reply(response, 'run_command', {command: 'setsid sleep 300 >/dev/null 2>&1 & echo "(pid $!)"'});
	const pid = /\(pid (\d+)\)/.exec(tool?.content ?? '')?.[1];
	if (pid !== undefined) seen.backgroundPids.push(Number(pid));
	if (prompt.includes('hang') || prompt.includes('background')) return;
	const together = /together=(\d+)/.exec(prompt)?.[1];
	if (together !== undefined) return holdUntil(seen, Number(together), () => reply(response, 'done', {summary: 'finished'}));
	const delay = Number(/delay=(\d+)/.exec(prompt)?.[1] ?? 0);
	setTimeout(() => reply(response, 'done', {summary: 'finished'}), delay);
}

/** `together=N`: answers once N such requests wait at once (or after 10 s, so a pool that serialises them fails, not hangs). */
function holdUntil(seen: Stub, count: number, release: () => void): void {
	seen.held.push(release);
	const releaseAll = (): void => {
		clearTimeout(timer);
		for (const held of seen.held.splice(0)) held();
	};
	const timer = setTimeout(releaseAll, 10_000);
	// Only the first held request's timer matters; the others go at once.
	if (seen.held.length > 1) clearTimeout(timer);
	if (seen.held.length >= count) releaseAll();
}

function reply(response: ServerResponse, name: string, args: object): void {
	response.writeHead(200, {'content-type': 'application/json'});
	response.end(JSON.stringify({
		id: 'chatcmpl-stub', object: 'chat.completion', created: 0, model: 'stub',
		choices: [{index: 0, finish_reason: 'tool_calls', message: {role: 'assistant', content: null, tool_calls: [{id: `call_${name}`, type: 'function', function: {name, arguments: JSON.stringify(args)}}]}}],
		usage: {prompt_tokens: 10, completion_tokens: 5, total_tokens: 15},
	}));
}

/** A candidate whose step policy spins forever on the task `spin` and lets every other task go on. */
async function spinningCandidate(t: Test): Promise<CandidateSnapshot> {
	const file = join(await tempDir(t, 'hlab-candidate-'), 'spin-policy.ts');
	await writeFile(file, `
export default {
	initialize: () => ({protocol_version: 1, capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}]}),
	invokeCapability: ({input}: {input: {task_id: string}}) => {
		if (input.task_id === 'spin') for (;;) {}
		return {output: {stop: false}};
	},
};
`);
	return compileCandidate(file);
}

function runner(t: Test, pool: TaskPool, server: Stub, candidate: CandidateSnapshot | null = null) {
	return async (id: string, prompt: string, timeoutMs = 20_000, signal = new AbortController().signal): Promise<PoolRun> => {
		const dir = await tempDir(t);
		const workspace = join(dir, 'workspace');
		await mkdir(workspace);
		return pool.run({
			task: {id, prompt: `task:${id} ${prompt}`}, workspace, stateDir: join(dir, 'state'),
			provider: {base_url: server.url, model: 'stub', api_key_env: null}, maxSteps: 5, deadlineMs: timeoutMs, candidate,
		}, {signal});
	};
}

function pool(t: Test, threads: number, tasksPerThread: number): TaskPool {
	const created = new TaskPool({threads, tasksPerThread});
	t.teardown(() => created.close());
	return created;
}

const outcomeOf = (run: PoolRun) => (run.kind === 'result' && run.result.kind === 'outcome' ? run.result.outcome : null);

t.test('64 tasks at concurrency 64 are all in flight at once on 2 threads, and all finish', async t => {
	const server = await stub(t);
	const tasks = pool(t, 2, 32);
	await tasks.warmUp();
	const run = runner(t, tasks, server);
	const runs = await Promise.all(Array.from({length: 64}, (_, index) => run(`t${index}`, 'together=64')));
	t.same(runs.map(one => outcomeOf(one)?.status), runs.map(() => 'done'), 'every task finished');
	t.equal(server.maxInFlight, 64, 'the 64 model requests were in flight together');
	const threads = new Set(runs.map(one => one.thread));
	t.ok(threads.size <= 2 && !threads.has(null), `the tasks ran on ${threads.size} threads: ${[...threads].join(', ')}`);
});

t.test('a task past its deadline ends as timeout in its thread, and the tasks beside it finish on that same thread', async t => {
	const server = await stub(t);
	const tasks = pool(t, 1, 3);
	await tasks.warmUp();
	const run = runner(t, tasks, server);
	const [late, first, second] = await Promise.all([run('late', 'hang', 1000), run('first', 'delay=2500'), run('second', 'delay=2500')]);
	t.equal(late.kind, 'result', 'the late task answered by itself');
	t.match(outcomeOf(late), {status: 'failed', reason: 'timeout'});
	t.ok(late.wall_ms < 1000 + graceMs, `it ended within its grace (${Math.round(late.wall_ms)} ms)`);
	t.equal(outcomeOf(first)?.status, 'done');
	t.equal(outcomeOf(second)?.status, 'done');
	const after = await run('after', 'delay=0');
	t.same([first.thread, second.thread, after.thread], [late.thread, late.thread, late.thread], 'the thread was never ended');
});

t.test('a candidate that spins forever has its thread ended at its own deadline: its task is a timeout, its thread-mate a named crash, and nothing they started survives', async t => {
	const server = await stub(t);
	const candidate = await spinningCandidate(t);
	const tasks = pool(t, 1, 2);
	await tasks.warmUp();
	const run = runner(t, tasks, server, candidate);
	// The I/O-bound task starts a background process and waits on the model when the spinning task takes the thread.
	// Its deadline passes first; the thread is still ended only at the spinning task's own deadline, and names it.
	const io = run('io', 'background', 3000);
	while (server.backgroundPids.length === 0) await sleep(20);
	const spin = await run('spin', 'delay=0', 5000);
	const mate = await io;
	t.equal(spin.kind, 'deadline');
	t.match(spin, {message: /did not yield within \d+ ms after its deadline; its worker thread was ended/});
	t.ok(spin.wall_ms >= 5000 + graceMs, 'the thread was ended only after the grace');
	t.equal(mate.kind, 'crash');
	t.match(mate, {message: /the code of task spin, running beside it, did not yield/});
	t.equal(mate.thread, spin.thread, 'both ran on the ended thread');
	const pid = server.backgroundPids[0]!;
	// Its parent was the ended thread, so nothing waits for it: a zombie at most, never running.
	t.notOk(isRunning(readStat(pid)), `the background job ${pid} of the crashed task is not running`);
	const after = await run('after', 'delay=0');
	t.equal(outcomeOf(after)?.status, 'done', 'the pool goes on with a fresh thread');
	t.not(after.thread, spin.thread);
});

t.test('a task that ended by itself has the process its command left outside its group ended with it', async t => {
	const server = await stub(t);
	const tasks = pool(t, 1, 1);
	await tasks.warmUp();
	// Three layers stand behind this: the command's containment (cgroup or /proc sweep), then the pool's marker scan, which
	// now runs only for a task that announced a command or ran candidate code. With the scan alone disabled it still passes.
	const done = await runner(t, tasks, server)('escape', 'escape');
	t.equal(outcomeOf(done)?.status, 'done', 'the task finished normally');
	const pid = server.backgroundPids[0];
	t.ok(pid !== undefined, 'the command reported the pid it left behind');
	t.notOk(isRunning(readStat(pid!)), `the escaped ${pid} is not running once the task's run returns`);
});

t.test('a task handed to a thread that candidate code already holds is failed naming that code', async t => {
	const server = await stub(t);
	const candidate = await spinningCandidate(t);
	const tasks = pool(t, 1, 2);
	await tasks.warmUp();
	const run = runner(t, tasks, server, candidate);
	const spin = run('spin', 'delay=0', 1000);
	await sleep(300);
	const [held, late] = await Promise.all([spin, run('late', 'delay=0')]);
	t.equal(held.kind, 'deadline');
	t.equal(late.kind, 'crash');
	t.match(late, {message: /the code of task spin, running (there|beside it), did not yield/});
});

t.test('an interruption ends every task cooperatively, without ending its thread', async t => {
	const server = await stub(t);
	const tasks = pool(t, 1, 2);
	await tasks.warmUp();
	const run = runner(t, tasks, server);
	const stop = new AbortController();
	const runs = Promise.all([run('a', 'hang', 20_000, stop.signal), run('b', 'hang', 20_000, stop.signal)]);
	while ((server.requests.get('a') ?? 0) + (server.requests.get('b') ?? 0) < 2) await sleep(20);
	stop.abort();
	const [a, b] = await runs;
	t.match([outcomeOf(a), outcomeOf(b)], [{status: 'failed', reason: 'aborted'}, {status: 'failed', reason: 'aborted'}]);
	const after = await run('after', 'delay=0');
	t.same([a.thread, b.thread], [after.thread, after.thread], 'the thread went on');
});
