import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {AgentRun} from '../../../supervisor/run-one/agent-run.js';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

/** `hlab agent` with a candidate that does not compile: the turn fails before its execution starts, so nothing was timed. */
async function neverStarted(json: boolean) {
	const dir = await tempDir(t, 'hlab-agent-never-started-');
	await writeFile(join(dir, 'broken.ts'), 'export default {;\n');
	return hlab(['agent', '--task', 'sales_report', '--workspace', join(dir, 'ws'), '--state-dir', join(dir, 'state'), '--candidate', join(dir, 'broken.ts'), ...(json ? ['--json'] : [])]);
}

t.test('a turn that never started has an unknown wall time, not 0, in hlab agent --json', async t => {
	const result = await neverStarted(true);
	t.equal(result.record.exit_code, 1, result.stderr);
	const run = AgentRun.parse(JSON.parse(result.stdout));
	t.same([run.outcome.status, run.outcome.reason], ['failed', 'init'], run.outcome.message ?? '');
	t.match(run.outcome.message, /cannot compile candidate/);
	t.equal(run.wall_ms, null, 'no execution, no measured wall time');
});

t.test('hlab agent\'s text says the wall time of a turn that never started is unknown', async t => {
	const result = await neverStarted(false);
	t.equal(result.record.exit_code, 1, result.stderr);
	t.match(result.stdout, /^wall time +unknown: the execution never started$/m);
	t.notMatch(result.stdout, /^wall time +0\.0 s$/m);
});
