import {spawn} from 'node:child_process';
import path from 'node:path';
import {installRoot} from '../files/install-root.js';
import type {Bench, BenchResult, BenchSize} from './bench-result.js';
import {alternate, median, round, spread} from './stats.js';

const hlab = path.join(installRoot, 'bin', 'hlab.js');
const startTarget = 2;

/** Wall time from spawn to exit of `node ARGS`, output discarded; a failed start is an error, not a figure. */
function timedStart(args: string[]): Promise<number> {
	const started = performance.now();
	const child = spawn(process.execPath, args, {stdio: 'ignore'});
	return new Promise((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', code => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`node ${args.join(' ')} exited with ${code}`))));
	});
}

/** One start-up figure: `hlab ARGS` against `node -e 0`, alternating, after one unmeasured run of each fills the compile cache. */
async function startupBench(name: string, args: string[], figure: string, size: BenchSize): Promise<BenchResult> {
	const repetitions = size === 'tiny' ? 2 : 20;
	const floorArgs = ['-e', '0'];
	await timedStart(floorArgs);
	await timedStart([hlab, ...args]);
	const samples = await alternate(repetitions, () => timedStart(floorArgs), () => timedStart([hlab, ...args]));
	const ratio = median(samples.measured) / median(samples.floor);
	return {
		name,
		figure,
		ratio: round(ratio),
		ratio_spread: spread(samples.measured.map((value, index) => round(value / samples.floor[index]!))),
		measured: {start_to_exit_ms: round(median(samples.measured))},
		floor: {node_e_0_ms: round(median(samples.floor))},
		floor_description: '`node -e 0` with the same node binary, spawned the same way',
		repetitions,
		notes: 'a warm compile cache (bin/hlab.js turns on Node\'s module compile cache; one unmeasured run fills it)',
		// Two rounds measure noise, not the condition: a tiny run gives no verdict.
		target: size === 'tiny' ? null : {description: `within ${startTarget}× of node -e 0`, met: ratio <= startTarget},
	};
}

export const startupHelp: Bench = {
	name: 'startup-help',
	run: size => startupBench('startup-help', ['--help'], '`hlab --help`: spawn to exit', size),
};

export const startupHostWorker: Bench = {
	name: 'startup-host-worker',
	run: size => startupBench('startup-host-worker', ['host-worker', '--help'], '`hlab host-worker --help`: spawn to exit, with the host-worker command and the engine loaded as for a host task', size),
};
