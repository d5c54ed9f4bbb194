import {readFile, writeFile} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {parseArgs} from 'node:util';
import {BenchResult, type Bench, type BenchSize} from './bench-result.js';
import {benches} from './benches.js';
import {closeOneTurnContext} from './one-turn/context.js';
import {renderTable, replaceTable} from './results-table.js';

const benchDir = path.resolve(import.meta.dirname, '../../bench');
const resultsFile = path.join(benchDir, 'results.json');
const readmeFile = path.join(benchDir, 'README.md');
/** A ratio this much worse than the committed one is printed as a warning. */
const regressionTolerance = 1.25;

const {values} = parseArgs({options: {size: {type: 'string', default: 'full'}, only: {type: 'string'}, 'no-write': {type: 'boolean', default: false}}});
if (values.size !== 'tiny' && values.size !== 'full') {
	process.stderr.write(`bench: --size must be tiny or full, got ${values.size}\n`);
	process.exit(2);
}
const size = values.size as BenchSize;
const selected: Bench[] = values.only ? benches.filter(bench => values.only!.split(',').includes(bench.name)) : benches;

const previous = await readPrevious();
const results: BenchResult[] = [];
try {
	await runSelected();
} finally {
	// The one-turn benches share an endpoint and a scratch folder; they end with the run.
	await closeOneTurnContext();
}

async function runSelected(): Promise<void> {
	for (const bench of selected) {
		const result = BenchResult.parse(await bench.run(size));
		results.push(result);
		process.stdout.write(`${JSON.stringify(result)}\n`);
		const before = previous.get(result.name);
		if (before && result.ratio > before.ratio * regressionTolerance) {
			process.stdout.write(`WARNING: ${result.name} regressed: ratio ${result.ratio} against ${before.ratio} in the committed table (over 25% worse)\n`);
		}
	}
}
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
const table = renderTable(results, machine);
process.stdout.write(`\n${table}\n`);
// Only a full run on the whole set is a result worth committing.
if (size === 'full' && !values.only && !values['no-write']) {
	await writeFile(resultsFile, `${JSON.stringify({machine, results}, null, 2)}\n`);
	await writeFile(readmeFile, replaceTable(await readFile(readmeFile, 'utf8'), table));
	process.stdout.write(`results written to ${path.relative(process.cwd(), resultsFile)} and the table in bench/README.md\n`);
}

async function readPrevious(): Promise<Map<string, BenchResult>> {
	try {
		const {results: list} = JSON.parse(await readFile(resultsFile, 'utf8')) as {results: unknown[]};
		return new Map(list.map(entry => BenchResult.parse(entry)).map(entry => [entry.name, entry]));
	} catch {
		return new Map();
	}
}
