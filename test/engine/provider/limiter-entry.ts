// A worker thread drawing from a limiter it was handed: it takes `count` turns and reports when each began.
import {parentPort, workerData} from 'node:worker_threads';
import {ProviderLimiter, type ProviderLimiterShare} from '../../../engine/provider/provider-limiter.js';

const {share, count, holdMs, inUse, release, remainingMs, barrier} = workerData as {share: ProviderLimiterShare; count: number; holdMs: number; inUse: SharedArrayBuffer; release: boolean; remainingMs: number; barrier: boolean};
const limiter = ProviderLimiter.attach(share);
if ('problem' in limiter) throw new Error(limiter.problem);
const holders = new Int32Array(inUse);
const budget = {remainingMs: () => remainingMs, signal: new AbortController().signal};
// With a barrier, threads start drawing together (when the parent sets the third word), however late each started.
parentPort!.postMessage({ready: true});
while (barrier && Atomics.load(holders, 2) === 0) await new Promise(resolve => setTimeout(resolve, 5));
for (let turn = 0; turn < count; turn += 1) {
	const admission = await limiter.acquire(budget);
	if (!admission.ok) throw new Error(admission.problem);
	const now = Atomics.add(holders, 0, 1) + 1;
	Atomics.store(holders, 1, Math.max(Atomics.load(holders, 1), now));
	parentPort!.postMessage({startedNs: process.hrtime.bigint().toString()});
	await new Promise(resolve => setTimeout(resolve, holdMs));
	Atomics.sub(holders, 0, 1);
	// A thread that never releases stands for one ended mid-request.
	if (release) admission.permit.release(0);
}
parentPort!.postMessage({done: true});
