import {randomBytes} from 'node:crypto';
import {rm} from 'node:fs/promises';
import {join} from 'node:path';
import {Ledger} from '../supervisor/attempt/index.js';
import type {TaskResult} from '../supervisor/attempt/report/report-schema.js';
import type {Bench, BenchSize} from './bench-result.js';
import {scratch} from './one-turn/fixture.js';
import {alternate, median, round, spread} from './stats.js';

const switchName = 'HLAB_BENCH_LEDGER_FSYNC';

function result(index: number): TaskResult {
	return {
		index, task_id: `task-${index}`, status: 'passed', reason: null, message: null,
		grade: {passed: true, score: 1, details: 'bench record'},
		outcome: {status: 'done', reason: null, message: null, steps: 1, usage: {turns: 1, input_tokens: 900, output_tokens: 20, cache_read_tokens: 0, cache_write_tokens: 0, total_tokens: 920, cost_usd: null}, final_text: 'done', stopped_by: null, time: null, infrastructure: null},
		usage: {turns: 1, input_tokens: 900, output_tokens: 20, cache_read_tokens: 0, cache_write_tokens: 0, total_tokens: 920, cost_usd: null},
		wall_ms: 12.5, evidence: {result: `tasks/${index}/result.json`},
	};
}

/** Appends `count` records one after another, as an attempt does (each awaited before the next task's record). */
async function appends(dir: string, count: number, flushed: boolean): Promise<number> {
	const path = join(dir, `ledger-${flushed ? 'sync' : 'nosync'}-${Math.random().toString(36).slice(2)}.jsonl`);
	const ledger = new Ledger(path, '00000000-0000-4000-8000-000000000000', randomBytes(32));
	if (flushed) delete process.env[switchName];
	else process.env[switchName] = '0';
	try {
		const started = performance.now();
		for (let index = 0; index < count; index += 1) await ledger.append(result(index));
		return (performance.now() - started) / count;
	} finally {
		delete process.env[switchName];
		await rm(path, {force: true});
	}
}

export const ledgerCost: Bench = {
	name: 'ledger-cost',
	async run(size: BenchSize) {
		const count = size === 'tiny' ? 20 : 200;
		const repetitions = size === 'tiny' ? 1 : 5;
		const space = await scratch('ledger');
		try {
			const samples = await alternate(repetitions, () => appends(space.dir, count, false), () => appends(space.dir, count, true));
			const [flushedMs, plainMs] = [median(samples.measured), median(samples.floor)];
			return {
				name: 'ledger-cost',
				figure: `per-task cost of the flushed ledger append (${count} records in a row)`,
				ratio: round(flushedMs / plainMs),
				ratio_spread: spread(samples.measured.map((value, index) => round(value / samples.floor[index]!))),
				measured: {append_ms: round(flushedMs, 3), fsync_cost_ms: round(flushedMs - plainMs, 3)},
				floor: {append_ms: round(plainMs, 3)},
				floor_description: `the same appends (open, write, close, schema check) with the fsync skipped (${switchName}=0, a bench-only switch)`,
				repetitions,
				notes: `on the scratch folder's filesystem (${space.dir}); fsync cost depends heavily on the disk`,
				target: null,
			};
		} finally {
			await space.remove();
		}
	},
};
