import {spawn} from 'node:child_process';
import path from 'node:path';
import {installRoot} from '../files/install-root.js';
import type {Bench, BenchResult, BenchSize} from './bench-result.js';
import {alternate, median, round, spread} from './stats.js';

const hlab = path.join(installRoot, 'bin', 'hlab.js');
const startTarget = 2;

/** What a start is given on stdin and the status it must end with; anything else is an error, not a figure. */
interface StartInput {
	stdin: string | null;
	exitCode: number;
}

const noInput: StartInput = {stdin: null, exitCode: 0};

/** Wall time from spawn to exit of `node ARGS`, output discarded. */
function timedStart(args: string[], input: StartInput = noInput): Promise<number> {
	const started = performance.now();
	const child = spawn(process.execPath, args, {stdio: [input.stdin === null ? 'ignore' : 'pipe', 'ignore', 'ignore']});
	child.stdin?.end(input.stdin);
	return new Promise((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', code => (code === input.exitCode ? resolve(performance.now() - started) : reject(new Error(`node ${args.join(' ')} exited with ${code}, not ${input.exitCode}`))));
	});
}

/** One start-up figure: `hlab ARGS` against `node -e 0`, alternating, after one unmeasured run of each fills the compile cache. */
async function startupBench(name: string, args: string[], figure: string, size: BenchSize, input: StartInput = noInput): Promise<BenchResult> {
	const repetitions = size === 'tiny' ? 2 : 20;
	const floorArgs = ['-e', '0'];
	await timedStart(floorArgs);
	await timedStart([hlab, ...args], input);
	const samples = await alternate(repetitions, () => timedStart(floorArgs), () => timedStart([hlab, ...args], input));
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
	// A request that is not one: the worker loads all a host task loads before its first model request, parses it and refuses it (status 2).
	run: size => startupBench('startup-host-worker', ['host-worker'], '`hlab host-worker` given `{}` on stdin: spawn to exit, with the command, the engine and the request schema loaded as for a host task, until the request is refused', size, {stdin: '{}', exitCode: 2}),
};
