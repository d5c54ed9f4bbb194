import {existsSync} from 'node:fs';
import {join} from 'node:path';
import t from 'tap';
import {AgentRun} from '../../../supervisor/run-one/agent-run.js';
import {copyCartridge, spinningCartridge} from '../../cartridges/cartridge-copy.js';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {reportResponses} from '../cartridge-commands/cartridge-cli.js';

checkNoLeaks(t);

async function agent(cartridge: string, extra: string[] = []): Promise<{status: number | null; run: AgentRun | null; stderr: string; wallMs: number; workspace: string}> {
	const dir = await tempDir(t, 'hlab-agent-cartridge-');
	const workspace = join(dir, 'ws');
	const t0 = performance.now();
	const result = await hlab(['agent', '--cartridge', cartridge, '--case', 'profit_math', '--workspace', workspace, '--state-dir', join(dir, 'state'), '--responses', reportResponses, '--json', ...extra]);
	const wallMs = performance.now() - t0;
	return {status: result.record.exit_code, run: result.stdout.trim() === '' ? null : AgentRun.parse(JSON.parse(result.stdout)), stderr: result.stderr, wallMs, workspace};
}

t.test('hlab agent runs a cartridge case with its harness and tools, judged by its graders', async t => {
	const {status, run, stderr} = await agent(await copyCartridge(t, 'report_agent'));
	t.equal(status, 0, stderr);
	t.equal(run!.task, 'profit_math');
	t.equal(run!.outcome.status, 'done');
	t.equal(run!.grade.passed, true, run!.grade.details);
	t.same(run!.budgets, {max_steps: 4, timeout_ms: 120_000}, 'the contract\'s limits when the flags give none');
});

t.test('a tool that never yields fails the case with reason timeout at the contract\'s deadline plus the grace', async t => {
	const {status, run, stderr, wallMs, workspace} = await agent(await spinningCartridge(t));
	t.equal(status, 1, stderr);
	t.ok(wallMs < 60_000, `the command ended in ${Math.round(wallMs)} ms`);
	t.ok(run!.wall_ms !== null && run!.wall_ms >= 3000 && run!.wall_ms < 30_000, `the case ran to its deadline, then the grace (${run!.wall_ms} ms)`);
	t.same([run!.outcome.status, run!.outcome.reason], ['failed', 'timeout'], run!.outcome.message ?? '');
	t.equal(run!.budgets.timeout_ms, 3000);
	t.ok(existsSync(join(workspace, 'spinning')), 'the tool did start spinning');
	t.equal(run!.grade.passed, false, 'the judges saw the failure');
});

t.test('--cartridge without --case, or with --task, is bad input', async t => {
	const dir = await tempDir(t);
	const noCase = await hlab(['agent', '--cartridge', dir, '--workspace', join(dir, 'ws')]);
	t.equal(noCase.record.exit_code, 2);
	t.match(noCase.stderr, /--cartridge needs --case/);
	const both = await hlab(['agent', '--task', 'sales_report', '--cartridge', dir, '--case', 'x', '--workspace', join(dir, 'ws')]);
	t.equal(both.record.exit_code, 2);
	t.match(both.stderr, /give --task ID or --cartridge DIR --case ID/);
});
