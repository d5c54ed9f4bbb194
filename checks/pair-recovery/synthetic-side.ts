import {chmod, writeFile} from 'node:fs/promises';
import {join} from 'node:path';

/** What one side of a synthetic `hlab eval` does: write this many passing task records, then end this way. */
export interface SideBehaviour {
	records: number;
	then: 'report' | 'crash' | 'hang';
}

/**
 * Writes a small executable that mimics `hlab eval` as `hlab pair` drives it: `eval --plan P --artifacts D`
 * (the baseline side, or the candidate side with `--candidate`) appends fsynced ledger records in the
 * attempt runner's format, then writes report.json, kills itself with SIGKILL, or hangs; `eval --compare`
 * writes an `accept` decision. No model call is made.
 */
export async function writeSyntheticSide(dir: string, name: string, behaviours: {baseline: SideBehaviour; candidate: SideBehaviour}): Promise<string> {
	const path = join(dir, `${name}.mjs`);
	await writeFile(path, `#!${process.execPath}
import {appendFileSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync} from 'node:fs';
import {join} from 'node:path';
const behaviours = ${JSON.stringify(behaviours)};
const args = process.argv.slice(2);
const flag = name => { const at = args.indexOf(name); return at < 0 ? undefined : args[at + 1]; };
if (args[0] !== 'eval') { process.stderr.write('synthetic side: only eval\\n'); process.exit(2); }
if (flag('--compare') !== undefined) {
	writeFileSync(flag('--decision-output'), JSON.stringify({schema: 'harness-lab/decision@1', decision: 'accept', synthetic: true}) + '\\n', {flag: 'wx'});
	process.stdout.write('accept\\n');
	process.exit(0);
}
const side = flag('--candidate') !== undefined ? 'candidate' : 'baseline';
const behaviour = behaviours[side];
const plan = JSON.parse(readFileSync(flag('--plan'), 'utf8'));
const dir = flag('--artifacts');
mkdirSync(dir);
const usage = {turns: 2, input_tokens: 100, output_tokens: 20, cache_read_tokens: 0, cache_write_tokens: 0, total_tokens: 120, cost_usd: null};
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
for (let index = 0; index < Math.min(behaviour.records, plan.task_ids.length); index += 1) {
	const result = {index, task_id: plan.task_ids[index], status: 'passed', reason: null, message: null, grade: {passed: true, score: 1, details: 'synthetic'}, outcome: null, usage, wall_ms: 10, evidence: {}};
	const line = JSON.stringify({schema: 'harness-lab/ledger-record@1', attempt_id: 'synthetic-' + side, recorded_at: new Date().toISOString(), result}) + '\\n';
	const fd = openSync(join(dir, 'ledger.jsonl'), 'a');
	writeSync(fd, line);
	fsyncSync(fd);
	closeSync(fd);
	process.stderr.write(side + ': recorded ' + result.task_id + '\\n');
	await sleep(150);
}
if (behaviour.then === 'crash') process.kill(process.pid, 'SIGKILL');
if (behaviour.then === 'hang') { process.stderr.write(side + ': hanging\\n'); setInterval(() => {}, 1000); await new Promise(() => {}); }
const tasks = plan.task_ids.map((task_id, index) => ({index, task_id, status: 'passed'}));
writeFileSync(join(dir, 'report.json'), JSON.stringify({schema: 'harness-lab/report@1', plan_digest: plan.plan_digest, task_ids: plan.task_ids, completion: 'finished', passed: true, tasks}) + '\\n');
process.exit(0);
`);
	await chmod(path, 0o755);
	return path;
}
