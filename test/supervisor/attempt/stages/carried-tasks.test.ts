import {randomBytes} from 'node:crypto';
import {existsSync} from 'node:fs';
import {appendFile, mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import type {TaskResult} from '../../../../supervisor/attempt/report/report-schema.js';
import type {AttemptContext} from '../../../../supervisor/attempt/stages/attempt-context.js';
import type {CarriedTasks} from '../../../../supervisor/attempt/stages/carried-records.js';
import {carryTask} from '../../../../supervisor/attempt/stages/carried-tasks.js';
import {Ledger, readLedger} from '../../../../supervisor/attempt/task-core/ledger.js';
import {sealedFiles} from '../../../../supervisor/evidence/seal/index.js';
import {tempDir} from '../../../temp-dir.js';

const folder = 'tasks/1-sales_report';

/** An earlier attempt's finished task on disk, and the digests its seal vouched for when it was verified. */
async function earlier(t: Test): Promise<{dir: string; carried: CarriedTasks; said: string[]}> {
	const dir = await tempDir(t);
	await mkdir(join(dir, folder), {recursive: true});
	const result: TaskResult = {index: 0, task_id: 'sales_report', status: 'failed', reason: null, message: null, grade: {passed: false, score: 0, details: 'wrong total'}, outcome: null, usage: null, wall_ms: 12, evidence: {result: `${folder}/result.json`, journal: `${folder}/journal.jsonl`}};
	await writeFile(join(dir, folder, 'result.json'), JSON.stringify(result));
	await writeFile(join(dir, folder, 'journal.jsonl'), '{"step":1}\n');
	const said: string[] = [];
	const ran = {side: 'baseline' as const, plan_digest: 'sha256:p', candidate: null, host: null, agent: null, harness: null};
	return {dir, said, carried: {from: {attempt_id: 'earlier-id', dir}, ran, results: new Map([[0, {result, files: sealedFiles(dir, result.evidence)}]]), say: line => void said.push(line)}};
}

/** The two things carrying a task touches: the evidence directory and the ledger. */
async function attemptIn(t: Test): Promise<AttemptContext> {
	const dir = await tempDir(t);
	return {dir, ledger: new Ledger(join(dir, 'ledger.jsonl'), 'resumed-id', randomBytes(32))} as AttemptContext;
}

t.test('a taken entry is copied, names the attempt that ran it, and is recorded in the new ledger', async t => {
	const {carried} = await earlier(t);
	const attempt = await attemptIn(t);
	const taken = await carryTask(attempt, carried, 0);
	t.equal(taken?.resumed_from, 'earlier-id');
	t.equal(taken?.status, 'failed', 'the verdict as it was sealed');
	t.equal(await readFile(join(attempt.dir, folder, 'journal.jsonl'), 'utf8'), '{"step":1}\n');
	t.equal(JSON.parse(await readFile(join(attempt.dir, folder, 'result.json'), 'utf8')).resumed_from, 'earlier-id');
	const ledger = await readLedger(join(attempt.dir, 'ledger.jsonl'));
	t.same(ledger.records.map(record => [record.attempt_id, record.result.resumed_from]), [['resumed-id', 'earlier-id']]);
	t.ok(ledger.records[0]!.seal?.files[`${folder}/journal.jsonl`], 'sealed again over the copies');
});

t.test('evidence changed after it was verified is not taken: nothing is copied or recorded, and the entry runs', async t => {
	const {dir, carried, said} = await earlier(t);
	// The attack: between the verification and the copy, the evidence is rewritten.
	await appendFile(join(dir, folder, 'journal.jsonl'), '{"step":2,"forged":true}\n');
	const attempt = await attemptIn(t);
	t.equal(await carryTask(attempt, carried, 0), null);
	t.match(said, [/^sales_report is rerun: its evidence changed in .* after it was verified \(tasks\/1-sales_report\/journal\.jsonl changed since it was sealed\)$/]);
	t.notOk(existsSync(join(attempt.dir, folder, 'journal.jsonl')), 'the changed copy is removed');
	t.notOk(existsSync(join(attempt.dir, 'ledger.jsonl')), 'nothing was recorded');
});
