import type {Bench} from './bench-result.js';
import {cleanupCost} from './cleanup-cost.js';
import {outputLimit} from './output-limit.js';

/** Every benchmark, in the order `npm run bench` runs them. */
export const benches: Bench[] = [cleanupCost, outputLimit];
