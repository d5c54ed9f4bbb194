import type {Bench} from './bench-result.js';
import {cleanupCost} from './cleanup-cost.js';
import {concurrency} from './concurrency.js';
import {hostDispatch} from './host-dispatch.js';
import {inProcessDispatch, inProcessScripted} from './in-process-dispatch.js';
import {ledgerCost} from './ledger-cost.js';
import {meteringProxy} from './metering-proxy.js';
import {outputLimit} from './output-limit.js';
import {peer} from './peer.js';
import {queue} from './queue.js';
import {sandboxedRunner} from './sandboxed-runner.js';
import {scale} from './scale.js';
import {spawnCost} from './spawn-cost.js';
import {startupHelp, startupHostWorker} from './startup.js';
import {tenThousand} from './ten-thousand.js';

/** Every benchmark, in the order `npm run bench` runs them. */
export const benches: Bench[] = [inProcessDispatch, inProcessScripted, concurrency, hostDispatch, scale, spawnCost, cleanupCost, outputLimit, ledgerCost, peer, startupHelp, startupHostWorker, queue, sandboxedRunner, meteringProxy, tenThousand];
