import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {runInGroup} from '../../../process/index.js';
import {copyCartridge, peekingPublishReport, spinningCartridge} from '../../cartridges/cartridge-copy.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {evalCli, readCase, readRun, reportResponses} from './cartridge-cli.js';

checkNoLeaks(t);

/** The contract's 3 s, the pool's 2 s grace, and generous room for a loaded machine; the command's start and judging come on top. */
const caseBoundMs = 30_000;
const commandBoundMs = 60_000;

t.test('a tool that never yields fails its case with reason timeout at the deadline plus the grace, and the run still ends', async t => {
	const cartridge = await spinningCartridge(t);
	const t0 = performance.now();
	const run = await evalCli(t, cartridge, reportResponses);
	const wallMs = performance.now() - t0;
	t.equal(run.status, 1, run.stderr);
	t.ok(wallMs < commandBoundMs, `ended in ${Math.round(wallMs)} ms`);
	const record = await readCase(run.out, 'profit_math');
	t.same([record.outcome.status, record.outcome.reason], ['failed', 'timeout'], record.outcome.message ?? '');
	t.match(record.outcome.message, /did not yield/);
	t.ok(existsSync(join(run.out, 'cases', 'profit_math', 'workspace', 'spinning')), 'the tool did start spinning');
	t.ok(record.wall_ms !== null && record.wall_ms >= 3000 && record.wall_ms < caseBoundMs, `the case ran to its deadline, then the grace (${record.wall_ms} ms)`);
	t.equal((await readRun(run.out)).exit_status, 1);
});

t.test('SIGTERM mid-spin ends hlab cartridge eval within a few seconds: the main thread is free and the spinning thread is ended', async t => {
	const cartridge = await spinningCartridge(t);
	const out = join(await tempDir(t, 'hlab-runs-'), 'runs');
	let pid = 0;
	const bin = join(import.meta.dirname, '../../../../bin/hlab.js');
	const ended = runInGroup({argv: [process.execPath, bin, 'cartridge', 'eval', cartridge, '--out', out, '--responses', reportResponses], deadlineMs: 120_000, onSpawn: spawned => (pid = spawned)});
	const spinning = join(out, 'cases', 'profit_math', 'workspace', 'spinning');
	for (let waited = 0; !existsSync(spinning) && waited < 60_000; waited += 20) await sleep(20);
	t.ok(existsSync(spinning), 'the tool is spinning');
	const sentAt = performance.now();
	process.kill(pid, 'SIGTERM');
	const run = await ended;
	const tookMs = performance.now() - sentAt;
	t.ok(tookMs < 15_000, `ended ${Math.round(tookMs)} ms after SIGTERM`);
	t.equal(run.record.exit_code, 1, run.stderr?.toString() ?? '');
	t.match(run.stderr?.toString(), /interrupted after 1 of 1 cases/);
	const record = await readCase(out, 'profit_math');
	t.same([record.outcome.status, record.outcome.reason], ['failed', 'aborted'], 'the case in flight is recorded as interrupted');
	t.notOk(existsSync(join(out, 'run.json')), 'an interrupted evaluation writes no run.json');
});

t.test('a tool looking above its workspace does not find the case\'s expected data while the agent runs', async t => {
	const cartridge = await copyCartridge(t, 'report_agent', {'tools/publish_report/execute.ts': peekingPublishReport});
	const run = await evalCli(t, cartridge, reportResponses);
	const caseDir = join(run.out, 'cases', 'profit_math');
	t.same(JSON.parse(await readFile(join(caseDir, 'workspace', 'peek.json'), 'utf8')), {found: false}, 'nothing was at ../expected.json during the run');
	t.same(JSON.parse(await readFile(join(caseDir, 'expected.json'), 'utf8')), {profit: 40}, 'it is kept beside the record once the run is over');
	t.equal((await readCase(run.out, 'profit_math')).outcome.status, 'done');
});
