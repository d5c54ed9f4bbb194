import {chooseContainment, runInGroup, type Containment} from '../process/index.js';
import {isRunning, readStat} from '../process/proc-table.js';
import {setTimeout as sleep} from 'node:timers/promises';
import {spawn} from 'node:child_process';
import {alternate, median, round, spread} from './stats.js';
import type {Bench, BenchSize} from './bench-result.js';

const graceMs = 500;

/** A shell that ignores SIGTERM and starts `size - 1` children that inherit the ignored signal. */
const treeScript = (size: number): string => `trap '' TERM HUP; i=1; while [ $i -lt ${size} ]; do sleep 300 & i=$((i+1)); done; echo ready; exec sleep 300`;

/**
 * Supervisor: time from the deadline until the last process is gone (the record's cleanup time), minus the grace.
 * With the cgroup backend that is cgroup.kill until `populated 0`; with /proc, SIGKILL to the group and the sweep.
 */
async function supervised(size: number, containment: Containment): Promise<number> {
	const deadlineMs = 400 + size * 10;
	const {record} = await runInGroup({argv: ['sh', '-c', treeScript(size)], deadlineMs: deadlineMs, graceMs, containment});
	if (record.failure !== 'timeout') throw new Error(`cleanup bench tree ended with ${record.failure}, not at its deadline`);
	if (record.survivors.length > 0) throw new Error(`cleanup bench left ${record.survivors.length} survivors`);
	return record.cleanup_ms - graceMs;
}

/** Floor: the same tree killed by hand with one SIGKILL to its group, timed until the last member is gone. */
async function byHand(size: number): Promise<number> {
	const child = spawn('sh', ['-c', treeScript(size)], {detached: true, stdio: ['ignore', 'pipe', 'ignore']});
	await new Promise(resolve => child.stdout.once('data', resolve));
	const members = await groupPids(child.pid!, size);
	const started = performance.now();
	process.kill(-child.pid!, 'SIGKILL');
	while (members.some(pid => isRunning(readStat(pid)))) await sleep(1);
	return performance.now() - started;
}

async function groupPids(pgid: number, size: number): Promise<number[]> {
	const {readTable} = await import('../process/proc-table.js');
	for (;;) {
		const pids = readTable().filter(stat => stat.pgid === pgid).map(stat => stat.pid);
		if (pids.length >= size) return pids;
		await sleep(5);
	}
}

export const cleanupCost: Bench = {
	name: 'cleanup-cost',
	async run(size: BenchSize) {
		const sizes = size === 'tiny' ? [1, 10] : [1, 10, 100];
		const repetitions = size === 'tiny' ? 1 : 5;
		// The strongest backend here is the figure; the /proc sweep runs next to it for comparison.
		const containment = chooseContainment();
		const measured: Record<string, number> = {};
		const floor: Record<string, number> = {};
		const ratios: number[] = [];
		for (const treeSize of sizes) {
			const samples = await alternate(repetitions, () => byHand(treeSize), () => supervised(treeSize, containment));
			measured[`tree_${treeSize}_ms_beyond_grace`] = round(median(samples.measured));
			floor[`tree_${treeSize}_raw_sigkill_ms`] = round(median(samples.floor));
			ratios.push(median(samples.measured) / Math.max(median(samples.floor), 1));
			if (containment !== 'proc') {
				const proc: number[] = [];
				for (let i = 0; i < repetitions; i += 1) proc.push(await supervised(treeSize, 'proc'));
				measured[`proc_sweep_tree_${treeSize}_ms_beyond_grace`] = round(median(proc));
			}
		}
		const largest = sizes.at(-1)!;
		const beyond = measured[`tree_${largest}_ms_beyond_grace`]!;
		const targetMs = containment === 'cgroup' ? 50 : 200;
		return {
			name: 'cleanup-cost',
			figure: `deadline → last process gone, minus ${graceMs} ms grace (tree of ${largest}, ${containment} backend)`,
			ratio: round(ratios.at(-1)!),
			ratio_spread: spread(ratios.map(value => round(value))),
			measured,
			floor,
			floor_description: 'the same tree ended by hand: one SIGKILL to its group, polled until every member is gone (floored at 1 ms)',
			repetitions,
			notes: containment === 'cgroup'
				? 'cgroup: SIGTERM to each member, the grace, one cgroup.kill, then cgroup.events until populated 0; proc_sweep_* is the /proc backend on the same trees'
				: 'the supervisor also waits out SIGTERM, re-kills a forking group, sweeps by marker and tracked ancestry, and verifies in /proc',
			// A tiny run never builds the tree of 100, so it has no verdict on the target.
			target: largest === 100 ? {description: `under ${targetMs} ms beyond the grace for 100 processes (${containment} backend)`, met: beyond < targetMs} : null,
		};
	},
};
