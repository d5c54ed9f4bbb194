import {existsSync} from 'node:fs';
import {readFile, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {Test} from 'tap';
import {Report} from '../../../supervisor/attempt/report/report-schema.js';
import {freeze, scratch} from '../../e2e/experiment-fixture.js';
import {startHlab, waitFor, type Supervised} from '../../cli/stop-signals-fixture.js';

/** The denominator: the third entry is the one the first attempt is stopped in. */
export const entries = ['answer_from_prompt', 'sales_report', 'json_config_migration', 'implement_function'];

/**
 * A step policy that gives up on sales_report at once (a failed verdict of the candidate's own) and, while `flag`
 * exists, holds its thread in json_config_migration after writing `mark`: the attempt is stopped there. The same file
 * runs the resumed attempt, with the flag gone.
 */
function stallingCandidate(flag: string, mark: string): string {
	return `import * as fs from 'node:fs';
export default {
	initialize: () => ({protocol_version: 1, id: 'resume-probe', capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}]}),
	invokeCapability({input}) {
		if (input.task_id === 'sales_report') return {output: {stop: true, reason: 'gave_up', content: 'gave up'}};
		if (input.task_id === 'json_config_migration' && fs.existsSync(${JSON.stringify(flag)})) {
			fs.writeFileSync(${JSON.stringify(mark)}, '');
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
		}
		return {output: {stop: false}};
	},
};
`;
}

export interface Stopped {
	dir: string;
	plan: string;
	candidate: string;
	/** The first attempt's evidence directory. */
	first: string;
	run: Supervised;
}

/** An attempt of the candidate side started and held in its third entry, its first two recorded. */
export async function heldAttempt(t: Test): Promise<Stopped> {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: entries.join(','), policy: {concurrency: 1}});
	const flag = join(dir, 'stall');
	const mark = join(dir, 'stalled');
	const candidate = join(dir, 'probe.ts');
	await writeFile(candidate, stallingCandidate(flag, mark));
	await writeFile(flag, '');
	const first = join(dir, 'first');
	const run = await startHlab(['eval', '--plan', plan, '--artifacts', first, '--candidate', candidate, '--json']);
	t.ok(await waitFor(() => existsSync(mark), 60_000), 'the attempt is held in its third entry');
	// The flag goes now: a resumed attempt of the same candidate runs json_config_migration through.
	await rm(flag);
	return {dir, plan, candidate, first, run};
}

export async function readReport(dir: string): Promise<Report> {
	return Report.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));
}

/** Rewrites one line of a ledger with `edit`, leaving its seal as it was: what someone with write access to the evidence does. */
export async function editLedgerLine(dir: string, entry: string, edit: (record: {result: Record<string, unknown>}) => void): Promise<void> {
	const path = join(dir, 'ledger.jsonl');
	const lines = (await readFile(path, 'utf8')).split('\n').filter(line => line !== '');
	const edited = lines.map(line => {
		const record = JSON.parse(line) as {result: Record<string, unknown>};
		if (record.result['task_id'] !== entry) return line;
		edit(record);
		return JSON.stringify(record);
	});
	await writeFile(path, `${edited.join('\n')}\n`);
}
