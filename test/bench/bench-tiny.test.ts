import path from 'node:path';
import t from 'tap';
import {BenchResult} from '../../bench/bench-result.js';
import {benches} from '../../bench/benches.js';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

const runner = path.resolve(import.meta.dirname, '../../bench/run.js');

t.test('every bench prints a valid BenchResult line at tiny size', async t => {
	// Generous: every dispatch bench runs real `hlab eval --plan` attempts, each with its own provider process.
	const run = await runInGroup({argv: [process.execPath, runner, '--size', 'tiny', '--no-write'], deadlineMs: 300_000, stdoutLimit: 16 * 1024 * 1024, stderrLimit: 16 * 1024 * 1024});
	t.equal(run.record.failure, null, run.stderr?.toString().slice(-2000) ?? '');
	t.equal(run.record.exit_code, 0, run.stderr?.toString().slice(-2000) ?? '');
	const lines = run.stdout!.toString().split('\n').filter(line => line.startsWith('{'));
	const results = lines.map(line => BenchResult.parse(JSON.parse(line)));
	t.same(results.map(result => result.name), benches.map(bench => bench.name), 'one line per bench, in order');
	for (const result of results) {
		t.ok(Number.isFinite(result.ratio) && result.ratio > 0, `${result.name}: a positive ratio`);
		t.ok(Object.keys(result.floor).length > 0, `${result.name}: a floor was measured`);
	}
	t.match(run.stdout!.toString(), /\| bench \| figure \|/, 'the summary table is printed');
});
