import {Worker} from 'node:worker_threads';
import t, {type Test} from 'tap';
import {createProviderLimiter, ProviderLimits, type ProviderLimiterShare} from '../../../engine/index.js';
import {ProviderLimiter, type WaitBudget} from '../../../engine/provider/provider-limiter.js';

/** The limiter view of a share that must be usable. */
function attach(share: ProviderLimiterShare): ProviderLimiter {
	const limiter = ProviderLimiter.attach(share);
	if ('problem' in limiter) throw new Error(limiter.problem);
	return limiter;
}

const budget = (remainingMs = 10_000): WaitBudget => ({remainingMs: () => remainingMs, signal: new AbortController().signal});

/** A worker thread that takes `count` turns from the shared limiter; resolves with the start time of each (ms). */
function drawInThread(t: Test, share: ProviderLimiterShare, options: {count: number; holdMs?: number; inUse?: SharedArrayBuffer; release?: boolean; remainingMs?: number; barrier?: boolean}): {worker: Worker; starts: Promise<number[]>; firstStart: Promise<void>; ready: Promise<void>} {
	const worker = new Worker(new URL('./limiter-entry.js', import.meta.url), {
		workerData: {share, count: options.count, holdMs: options.holdMs ?? 0, inUse: options.inUse ?? new SharedArrayBuffer(12), release: options.release ?? true, remainingMs: options.remainingMs ?? 10_000, barrier: options.barrier ?? false},
	});
	t.teardown(() => worker.terminate());
	const starts: number[] = [];
	let first: () => void;
	let onReady: () => void;
	const firstStart = new Promise<void>(resolve => (first = resolve));
	const ready = new Promise<void>(resolve => (onReady = resolve));
	const done = new Promise<number[]>((resolve, reject) => {
		worker.on('message', (message: {startedNs?: string; done?: true; ready?: true}) => {
			if (message.ready) onReady();
			if (message.startedNs !== undefined) {
				starts.push(Number(BigInt(message.startedNs)) / 1e6);
				first();
			}
			if (message.done) resolve(starts);
		});
		worker.on('error', reject);
	});
	return {worker, starts: done, firstStart, ready};
}

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

t.test('the request rate spaces every start, across threads, a minute / rate apart', async t => {
	const share = createProviderLimiter({requests_per_minute: 1200});
	const limiter = attach(share);
	const begin = nowMs();
	const threads = [drawInThread(t, share, {count: 5}), drawInThread(t, share, {count: 5})];
	const here: number[] = [];
	for (let turn = 0; turn < 5; turn += 1) {
		const admission = await limiter.acquire(budget());
		if (!admission.ok) throw new Error(admission.problem);
		here.push(nowMs());
		admission.permit.release(0);
	}
	const starts = [...here, ...(await Promise.all(threads.map(thread => thread.starts))).flat()].sort((a, b) => a - b);
	t.equal(starts.length, 15);
	// Turns are reserved 50 ms apart from the first; a thread may start late for its turn, never early.
	const early = starts.filter((start, index) => start < begin + 50 * index - 1);
	t.same(early, [], `the k-th start comes at least k turns after the beginning (${starts.map(start => Math.round(start - begin)).join(', ')} ms)`);
});

t.test('connections are capped across threads', async t => {
	const share = createProviderLimiter({max_connections: 2});
	const inUse = new SharedArrayBuffer(12);
	const threads = [0, 1, 2].map(() => drawInThread(t, share, {count: 4, holdMs: 60, inUse, barrier: true}));
	await Promise.all(threads.map(thread => thread.ready));
	Atomics.store(new Int32Array(inUse), 2, 1);
	await Promise.all(threads.map(thread => thread.starts));
	t.equal(new Int32Array(inUse)[1], 2, 'never more than 2 at once, and 2 were used');
});

t.test('a connection held by a thread that was ended comes back when its lease runs out', async t => {
	const share = createProviderLimiter({max_connections: 1});
	const thread = drawInThread(t, share, {count: 1, holdMs: 60_000, release: false, remainingMs: 500});
	await thread.firstStart;
	await thread.worker.terminate();
	const started = performance.now();
	const admission = await attach(share).acquire(budget());
	const waited = performance.now() - started;
	t.ok(admission.ok);
	// The lease is the holder's remaining time (500 ms) and a grace of 1 s: the slot is not free before it ends.
	t.ok(waited > 1000 && waited < 2500, `waited for the lease, not for ever (${Math.round(waited)} ms)`);
});

t.test('a pause holds every request; one that would outlast the budget fails at once, saying why', async t => {
	const limiter = attach(createProviderLimiter());
	limiter.pauseFor(400);
	let started = performance.now();
	const admitted = await limiter.acquire(budget());
	t.ok(admitted.ok && performance.now() - started >= 395, 'the request waited out the pause');
	limiter.pauseFor(5000);
	started = performance.now();
	const refused = await limiter.acquire(budget(1000));
	t.match(refused, {ok: false, problem: /the provider asked to wait for \d+ ms, past the deadline/});
	// Waiting would take the budget (1 s) or the pause (5 s); half a second leaves a loaded machine's scheduling room.
	t.ok(performance.now() - started < 500, 'without waiting');
	const controller = new AbortController();
	controller.abort();
	t.match(await limiter.acquire({remainingMs: () => 10_000, signal: controller.signal}), {ok: false, problem: /ended with the task/});
});

t.test('tokens beyond a minute\'s worth hold the next request until they are paid back', async t => {
	const limiter = attach(createProviderLimiter({tokens_per_minute: 100_000}));
	const first = await limiter.acquire(budget());
	if (!first.ok) throw new Error(first.problem);
	first.permit.release(101_000);
	const started = performance.now();
	t.ok((await limiter.acquire(budget())).ok);
	const waited = performance.now() - started;
	t.ok(waited >= 550 && waited < 1500, `1000 tokens over the minute's worth cost 600 ms at 100 000 a minute (${Math.round(waited)} ms)`);
});

/** `count` threads that ask the limiter one after another (thread k k-th); resolves with the order they were served. */
async function queueInThreads(t: Test, share: ProviderLimiterShare, count: number, holdMs: number, hooks: {beforeAsking?: () => void; whenQueued?: () => void} = {}): Promise<number[]> {
	const order = new SharedArrayBuffer(12);
	const served: number[] = Array(count).fill(-1);
	const workers = Array.from({length: count}, (_, index) => new Worker(new URL('./limiter-queue-entry.js', import.meta.url), {workerData: {share, order, index, holdMs}}));
	for (const worker of workers) t.teardown(() => worker.terminate());
	const ready = workers.map(worker => new Promise<void>(resolve => worker.once('message', () => resolve())));
	await Promise.all(ready);
	const asked = new Int32Array(order);
	// Threads start slowly on a loaded machine: they begin asking when all of them are up.
	hooks.beforeAsking?.();
	Atomics.store(asked, 2, 1);
	while (Atomics.load(asked, 0) < count) await new Promise(resolve => setTimeout(resolve, 5));
	hooks.whenQueued?.();
	const done = workers.map(worker => new Promise<void>((resolve, reject) => {
		worker.on('message', (message: {index?: number; served?: number}) => {
			if (message.index === undefined) return;
			served[message.served!] = message.index;
			resolve();
		});
		worker.on('error', reject);
	}));
	await Promise.all(done);
	return served;
}

t.test('waiters are served in the order they began waiting, across threads: behind a busy connection', {timeout: 90_000}, async t => {
	const share = createProviderLimiter({max_connections: 1});
	const limiter = attach(share);
	const held = await limiter.acquire(budget());
	if (!held.ok) throw new Error(held.problem);
	// The connection is held while all five threads queue, then handed on; each holds it a little, so all wake each time.
	const served = await queueInThreads(t, share, 5, 15, {whenQueued: () => setTimeout(() => held.permit.release(0), 100)});
	t.same(served, [0, 1, 2, 3, 4], 'thread k, which asked k-th, was served k-th');
});

t.test('waiters are served in the order they began waiting, across threads: behind a provider\'s pause', {timeout: 90_000}, async t => {
	// One connection, so each is served only after the one before it released: the order served is the order seen.
	const share = createProviderLimiter({max_connections: 1});
	t.same(await queueInThreads(t, share, 5, 20, {beforeAsking: () => attach(share).pauseFor(1000)}), [0, 1, 2, 3, 4], 'when the pause ends, the first to ask goes first');
});

t.test('a waiter that gives up leaves the queue, and one whose thread was ended is passed over after a second', async t => {
	const share = createProviderLimiter({max_connections: 1});
	const limiter = attach(share);
	const held = await limiter.acquire(budget());
	if (!held.ok) throw new Error(held.problem);
	const quitting = new AbortController();
	const quitter = limiter.acquire({remainingMs: () => 10_000, signal: quitting.signal});
	// A thread that takes a ticket and is ended while it waits.
	const lost = drawInThread(t, share, {count: 1, remainingMs: 10_000});
	await lost.ready;
	await new Promise(resolve => setTimeout(resolve, 100));
	await lost.worker.terminate();
	const next = limiter.acquire(budget());
	quitting.abort();
	t.match(await quitter, {ok: false, problem: /ended with the task/});
	const started = performance.now();
	held.permit.release(0);
	const admitted = await next;
	const waited = performance.now() - started;
	t.ok(admitted.ok, 'the waiter behind them is served');
	t.ok(waited < 3000, `without waiting for ever (${Math.round(waited)} ms)`);
});

t.test('a dead provider service fails every waiting and later request at once', async t => {
	const limiter = attach(createProviderLimiter());
	limiter.pauseFor(5000);
	const waiting = limiter.acquire(budget());
	const resting = limiter.rest(5000, new AbortController().signal);
	const started = performance.now();
	limiter.markProviderDead(Date.parse('2026-01-02T03:04:05Z'));
	t.match(await waiting, {ok: false, problem: /the provider's service died at 2026-01-02T03:04:05/});
	await resting;
	t.ok(performance.now() - started < 500, 'the wait and the backoff end at once');
	t.match(await limiter.acquire(budget()), {ok: false, problem: /died/});
	t.equal(limiter.providerDiedAt(), Date.parse('2026-01-02T03:04:05Z'));
});

t.test('a share that lost its shared memory is refused, not used', async t => {
	const share = createProviderLimiter({max_connections: 4});
	t.match(ProviderLimiter.attach({...share, buffer: new ArrayBuffer(64)} as never), {problem: /buffer/});
	t.match(ProviderLimiter.attach({...share, buffer: new SharedArrayBuffer(8)}), {problem: /smaller than its limits need/});
});

t.test('limits are validated', async t => {
	t.throws(() => createProviderLimiter({max_connections: 0}));
	t.throws(() => createProviderLimiter({requests_per_minute: 1.5}));
	t.throws(() => createProviderLimiter({burst: 3} as never));
	t.same(createProviderLimiter().limits, {max_connections: null, requests_per_minute: null, tokens_per_minute: null, request_timeout_ms: null}, 'no limit is null, and every key is present, so a frozen plan has one form');
	t.same(ProviderLimits.parse({requests_per_minute: 500}), createProviderLimiter({requests_per_minute: 500}).limits);
});
