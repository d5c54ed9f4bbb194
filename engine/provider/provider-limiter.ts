/// <reference lib="es2024.sharedmemory" />
import {z} from 'zod';
import {ProviderLimits} from './provider-limits.js';

/**
 * What crosses to every task of an attempt, in-process or in a worker thread: the limits and the shared memory
 * that holds the limiter's state. A SharedArrayBuffer stays shared through `postMessage`, so threads see one limiter.
 */
export const ProviderLimiterShare = z.object({
	limits: ProviderLimits,
	buffer: z.instanceof(SharedArrayBuffer),
});
export type ProviderLimiterShare = z.infer<typeof ProviderLimiterShare>;

// Layout: Int32 words (a change counter waiters sleep on, the queue's tickets, the head's heartbeat, a ring of tags
// for waiters that left the queue), then BigInt64 words (times in monotonic nanoseconds, and when the provider died).
const changed = 0;
const nextTicket = 1;
const serving = 2;
const headBeats = 3;
const grantedUpTo = 4;
const ringSize = 256;
const ringOffset = 5;
const intWords = ringOffset + ringSize;
const paused = 0;
const nextRequest = 1;
const tokensOwed = 2;
const providerDied = 3;
const firstSlot = 4;
// Rounded up to whole 8-byte words, where BigInt64 words must start.
const timesOffset = Math.ceil((intWords * 4) / 8) * 8;

/** One limiter for the attempt: the supervisor creates it once and hands the same share to every task. */
export function createProviderLimiter(limits: z.input<typeof ProviderLimits> = {}): ProviderLimiterShare {
	const parsed = ProviderLimits.parse(limits);
	const slots = parsed.max_connections ?? 0;
	return {limits: parsed, buffer: new SharedArrayBuffer(timesOffset + 8 * (firstSlot + slots))};
}

/** The process's monotonic clock: one clock for every thread, unlike `performance.now()`. */
function now(): bigint {
	return process.hrtime.bigint();
}

const nsPerMs = 1_000_000n;
const minuteNs = 60_000n * nsPerMs;
/** A connection held by a thread that was ended is reclaimed this long after its task's deadline. */
const leaseGraceMs = 1000;

function toNs(ms: number): bigint {
	return BigInt(Math.max(0, Math.ceil(ms * 1e6)));
}

function toMs(ns: bigint): number {
	return Number(ns) / 1e6;
}

/** The time a request waits for, and the task's budget for waiting. */
export interface WaitBudget {
	remainingMs(): number;
	signal: AbortSignal;
}

export interface Permit {
	/** Gives the connection back and counts the tokens the request used. */
	release(tokens: number): void;
}

export type Admission = {ok: true; permit: Permit} | {ok: false; problem: string};

type Blocked = {untilNs: bigint; why: string} | null;

/** How often the waiter at the head of the queue shows it is alive, and how long a silent head is waited for. */
const beatMs = 200;
const silentHeadMs = 1000;

type Turn = {kind: 'turn'} | {kind: 'granted'} | {kind: 'passed'} | {kind: 'refused'; admission: Admission & {ok: false}};

/**
 * A view of a shared limiter in this thread. Every state change is one atomic operation or compare-and-swap, so no
 * thread holds a lock. Requests queue in the order they asked (a ticket each, served in ticket order, like a bakery):
 * only the head of the queue may take a connection and a start time, so a task that has waited longest goes first.
 */
export class ProviderLimiter {
	private readonly ints: Int32Array;
	private readonly times: BigInt64Array;
	private readonly slots: number;

	private constructor(readonly limits: ProviderLimits, buffer: SharedArrayBuffer) {
		this.ints = new Int32Array(buffer, 0, intWords);
		this.slots = limits.max_connections ?? 0;
		this.times = new BigInt64Array(buffer, timesOffset, firstSlot + this.slots);
	}

	/** A view of `share` in this thread, or why it cannot be one (it crossed a thread boundary as plain data). */
	static attach(share: ProviderLimiterShare): ProviderLimiter | {problem: string} {
		const parsed = ProviderLimiterShare.safeParse(share);
		if (!parsed.success) return {problem: parsed.error.issues.map(issue => `${issue.path.join('.')}: ${issue.message}`).join('; ')};
		const {limits, buffer} = parsed.data;
		if (buffer.byteLength < timesOffset + 8 * (firstSlot + (limits.max_connections ?? 0))) return {problem: 'its buffer is smaller than its limits need'};
		return new ProviderLimiter(limits, buffer);
	}

	/**
	 * Waits until a request may start: its turn in the queue, no pause, tokens within a minute's worth, a free
	 * connection, its turn in the request rate. Gives up at once, with why, when the wait it knows of would outlast the
	 * budget, or when the provider's service died.
	 */
	async acquire(budget: WaitBudget): Promise<Admission> {
		for (;;) {
			const ticket = Atomics.add(this.ints, nextTicket, 1);
			const turn = await this.waitForTurn(ticket, budget);
			if (turn.kind === 'refused') return turn.admission;
			if (turn.kind === 'granted') return {ok: true, permit: this.permit(-1)};
			// A head that fell silent for a second was passed over: this one was alive after all, so it asks again.
			if (turn.kind === 'passed') continue;
			const admission = await this.admitHead(ticket, budget);
			if (admission !== null) return admission;
		}
	}

	/** Holds every request of the attempt for `ms` (a provider's Retry-After); a longer pause already set stands. */
	pauseFor(ms: number): void {
		this.raiseTo(paused, now() + toNs(ms));
		this.announce();
	}

	/** Marks the provider's service dead for every task of the attempt: waiting and later requests fail at once. */
	markProviderDead(atMs: number = Date.now()): void {
		Atomics.compareExchange(this.times, providerDied, 0n, BigInt(Math.max(1, Math.round(atMs))));
		this.announce();
	}

	/** When the provider's service died (ms since the epoch), or null while it lives. */
	providerDiedAt(): number | null {
		const at = Atomics.load(this.times, providerDied);
		return at === 0n ? null : Number(at);
	}

	/** Sleeps `ms` (a task's own backoff), or less when the task ends or the provider's service dies. */
	async rest(ms: number, signal: AbortSignal): Promise<void> {
		const until = now() + toNs(ms);
		for (;;) {
			const seen = Atomics.load(this.ints, changed);
			const left = toMs(until - now());
			if (left <= 0 || signal.aborted || this.providerDiedAt() !== null) return;
			await this.waitForChange(seen, left, signal);
		}
	}

	/** Until `ticket` is the head of the queue, it was passed over, or it has to give up (and leaves the queue). */
	private async waitForTurn(ticket: number, budget: WaitBudget): Promise<Turn> {
		let watched = {head: -1, beats: -1, sinceNs: 0n};
		for (;;) {
			const seen = Atomics.load(this.ints, changed);
			const head = Atomics.load(this.ints, serving);
			if (head === ticket) return {kind: 'turn'};
			if (head - ticket > 0) return Atomics.load(this.ints, grantedUpTo) - ticket > 0 ? {kind: 'granted'} : {kind: 'passed'};
			const at = now();
			const refusal = this.refusal(at, budget);
			if (refusal !== null) {
				this.leave(ticket);
				return {kind: 'refused', admission: refusal};
			}
			watched = this.passSilentHead(head, at, watched);
			await this.waitForChange(seen, Math.min(budget.remainingMs(), beatMs), budget.signal);
		}
	}

	/**
	 * The head of the queue takes a connection and a start time, then hands the head on. Null when a pause began
	 * while it waited for its start: it queues again.
	 */
	private async admitHead(ticket: number, budget: WaitBudget): Promise<Admission | null> {
		for (;;) {
			this.beat();
			const seen = Atomics.load(this.ints, changed);
			const at = now();
			const remainingMs = budget.remainingMs();
			const refusal = this.refusal(at, budget);
			if (refusal !== null) {
				this.leave(ticket);
				return refusal;
			}
			const blocked = this.blocked(at);
			if (blocked !== null) {
				// Awake every beat, so the waiters behind see the head is alive.
				await this.waitForChange(seen, Math.min(toMs(blocked.untilNs - at), beatMs), budget.signal);
				continue;
			}
			// Nothing to share out but the pause: everyone queued behind the head goes with it, as they would in order.
			if (this.unlimited()) {
				this.grantAll(ticket);
				return {ok: true, permit: this.permit(-1)};
			}
			const slot = this.claimSlot(at, at + toNs(remainingMs + leaseGraceMs));
			if (slot === null) {
				if (remainingMs <= 0) {
					this.leave(ticket);
					return {ok: false, problem: `all ${this.slots} connections stayed in use until the deadline`};
				}
				// A release wakes this wait; a holder that was ended never releases, so its lease's end does.
				await this.waitForChange(seen, Math.min(remainingMs, toMs(this.earliestLeaseEnd() - at), beatMs), budget.signal);
				continue;
			}
			const startNs = this.reserveStart(at, toNs(remainingMs));
			this.leave(ticket);
			if (startNs === null) {
				this.freeSlot(slot);
				return {ok: false, problem: `the rate of ${this.limits.requests_per_minute} requests per minute leaves no turn before the deadline`};
			}
			if (startNs > at) await this.sleep(toMs(startNs - at), budget.signal);
			// A pause that began while this request waited for its turn holds it too.
			if (this.blocked(now()) !== null || budget.signal.aborted || this.providerDiedAt() !== null) {
				this.freeSlot(slot);
				return null;
			}
			return {ok: true, permit: this.permit(slot)};
		}
	}

	/** Why a waiter gives up now: the task ended, the service died, or the wait it knows of outlasts its budget. */
	private refusal(at: bigint, budget: WaitBudget): (Admission & {ok: false}) | null {
		if (budget.signal.aborted) return {ok: false, problem: 'the wait ended with the task'};
		const died = this.providerDiedAt();
		if (died !== null) return {ok: false, problem: `the provider's service died at ${new Date(died).toISOString()}`};
		const remainingMs = budget.remainingMs();
		const blocked = this.blocked(at);
		if (blocked !== null && toMs(blocked.untilNs - at) > remainingMs) return {ok: false, problem: `${blocked.why} for ${Math.ceil(toMs(blocked.untilNs - at))} ms, past the deadline`};
		if (remainingMs <= 0) return {ok: false, problem: 'earlier requests of the attempt held the queue until the deadline'};
		return null;
	}

	/** The head shows it is alive. */
	private beat(): void {
		Atomics.add(this.ints, headBeats, 1);
	}

	/**
	 * A head that has not beaten for a second (its thread was ended, or never got past taking its ticket) is passed
	 * over, so one lost task cannot stall the queue. Each waiter times the silence on its own clock.
	 */
	private passSilentHead(head: number, at: bigint, watched: {head: number; beats: number; sinceNs: bigint}): {head: number; beats: number; sinceNs: bigint} {
		const beats = Atomics.load(this.ints, headBeats);
		if (watched.head !== head || watched.beats !== beats) return {head, beats, sinceNs: at};
		if (at - watched.sinceNs < toNs(silentHeadMs)) return watched;
		this.handOn(head);
		return {head: -1, beats: -1, sinceNs: at};
	}

	private unlimited(): boolean {
		return this.slots === 0 && this.limits.requests_per_minute === null && this.limits.tokens_per_minute === null;
	}

	/** The head serves itself and every waiter that asked before now, at once. */
	private grantAll(ticket: number): void {
		const upTo = Atomics.load(this.ints, nextTicket);
		for (;;) {
			const granted = Atomics.load(this.ints, grantedUpTo);
			if (granted - upTo >= 0 || Atomics.compareExchange(this.ints, grantedUpTo, granted, upTo) === granted) break;
		}
		Atomics.compareExchange(this.ints, serving, ticket, upTo);
		this.beat();
		this.announce();
	}

	/** Leaves the queue: the head hands the turn on; a waiter behind it leaves a tag the head's successor skips. */
	private leave(ticket: number): void {
		Atomics.store(this.ints, ringOffset + (ticket & (ringSize - 1)), ticket + 1);
		if (Atomics.load(this.ints, serving) === ticket) this.handOn(ticket);
	}

	/** Moves the head past `from` (if it is still there) and past every waiter after it that has left. */
	private handOn(from: number): void {
		let head = from;
		while (Atomics.compareExchange(this.ints, serving, head, head + 1) === head) {
			head += 1;
			this.beat();
			if (Atomics.load(this.ints, ringOffset + (head & (ringSize - 1))) !== head + 1) break;
		}
		this.announce();
	}

	private blocked(at: bigint): Blocked {
		const pausedUntil = Atomics.load(this.times, paused);
		const tokens = this.limits.tokens_per_minute === null ? 0n : Atomics.load(this.times, tokensOwed) - minuteNs;
		if (pausedUntil <= at && tokens <= at) return null;
		return pausedUntil >= tokens
			? {untilNs: pausedUntil, why: 'the provider asked to wait'}
			: {untilNs: tokens, why: `the rate of ${this.limits.tokens_per_minute} tokens per minute holds requests`};
	}

	/** A free connection (or one whose holder's lease ran out), or null when none is; -1 when connections are unlimited. */
	private claimSlot(at: bigint, leaseEnd: bigint): number | null {
		if (this.slots === 0) return -1;
		for (let slot = firstSlot; slot < firstSlot + this.slots; slot += 1) {
			const held = Atomics.load(this.times, slot);
			if (held <= at && Atomics.compareExchange(this.times, slot, held, leaseEnd) === held) return slot;
		}
		return null;
	}

	private earliestLeaseEnd(): bigint {
		let earliest = Atomics.load(this.times, firstSlot);
		for (let slot = firstSlot + 1; slot < firstSlot + this.slots; slot += 1) {
			const held = Atomics.load(this.times, slot);
			if (held < earliest) earliest = held;
		}
		return earliest;
	}

	private freeSlot(slot: number): void {
		if (slot < 0) return;
		Atomics.store(this.times, slot, 0n);
		this.announce();
	}

	/** The start time reserved for this request: requests are spaced a minute / rate apart. Null past `withinNs`. */
	private reserveStart(at: bigint, withinNs: bigint): bigint | null {
		const rate = this.limits.requests_per_minute;
		if (rate === null) return at;
		const spacing = minuteNs / BigInt(rate);
		for (;;) {
			const next = Atomics.load(this.times, nextRequest);
			const start = next > at ? next : at;
			if (start - at > withinNs) return null;
			if (Atomics.compareExchange(this.times, nextRequest, next, start + spacing) === next) return start;
		}
	}

	private permit(slot: number): Permit {
		let released = false;
		return {
			release: (tokens: number) => {
				if (released) return;
				released = true;
				this.owe(tokens);
				this.freeSlot(slot);
			},
		};
	}

	/** Tokens are paid back at the allowed rate; requests wait while more than a minute's worth is owed. */
	private owe(tokens: number): void {
		const rate = this.limits.tokens_per_minute;
		if (rate === null || tokens <= 0) return;
		const cost = (BigInt(Math.ceil(tokens)) * minuteNs) / BigInt(rate);
		for (;;) {
			const owed = Atomics.load(this.times, tokensOwed);
			const at = now();
			const from = owed > at ? owed : at;
			if (Atomics.compareExchange(this.times, tokensOwed, owed, from + cost) === owed) return;
		}
	}

	private raiseTo(index: number, value: bigint): void {
		for (;;) {
			const current = Atomics.load(this.times, index);
			if (current >= value || Atomics.compareExchange(this.times, index, current, value) === current) return;
		}
	}

	/** Wakes every waiter, in every thread, to look again. */
	private announce(): void {
		Atomics.add(this.ints, changed, 1);
		Atomics.notify(this.ints, changed);
	}

	/** Until another thread announces a change, `ms` pass, or the signal aborts. */
	private async waitForChange(seen: number, ms: number, signal: AbortSignal): Promise<void> {
		const waiting = Atomics.waitAsync(this.ints, changed, seen, Math.max(0, ms));
		if (!waiting.async) return;
		// A pending waitAsync does not keep Node's event loop alive; the timer does.
		const stop = new AbortController();
		const timer = this.sleep(ms, AbortSignal.any([signal, stop.signal]));
		await Promise.race([waiting.value, timer]);
		stop.abort();
	}

	private sleep(ms: number, signal: AbortSignal): Promise<void> {
		return new Promise(resolve => {
			if (signal.aborted) return resolve();
			const done = (): void => {
				clearTimeout(timer);
				signal.removeEventListener('abort', done);
				resolve();
			};
			const timer = setTimeout(done, Math.max(0, ms));
			signal.addEventListener('abort', done, {once: true});
		});
	}
}
