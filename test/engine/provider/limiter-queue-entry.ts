// A worker thread that joins the shared limiter's queue when its turn to ask comes, and reports when it was served.
import {parentPort, workerData} from 'node:worker_threads';
import {ProviderLimiter, type ProviderLimiterShare} from '../../../engine/provider/provider-limiter.js';

const {share, order, index, holdMs} = workerData as {share: ProviderLimiterShare; order: SharedArrayBuffer; index: number; holdMs: number};
const limiter = ProviderLimiter.attach(share);
if ('problem' in limiter) throw new Error(limiter.problem);
// Word 0: how many threads have asked so far (thread k asks k-th); word 1: how many were served; word 2: set to start.
const counters = new Int32Array(order);
parentPort!.postMessage({ready: true});
while (Atomics.load(counters, 2) === 0 || Atomics.load(counters, 0) !== index) await new Promise(resolve => setTimeout(resolve, 2));
// The ticket is taken before acquire's first await, so the order of asking is the order of these calls.
const admitted = limiter.acquire({remainingMs: () => 20_000, signal: new AbortController().signal});
Atomics.add(counters, 0, 1);
const admission = await admitted;
if (!admission.ok) throw new Error(admission.problem);
const served = Atomics.add(counters, 1, 1);
await new Promise(resolve => setTimeout(resolve, holdMs));
admission.permit.release(0);
parentPort!.postMessage({index, served});
