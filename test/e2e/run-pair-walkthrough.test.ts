import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

// examples/run-pair/run.sh exactly as shipped: archive this checkout, rebuild two checkouts, change the candidate's engine, build both hosts, pair them.
checkNoLeaks(t);
// Longer than the suite's 300 s per file: the walkthrough is minutes of real builds and runs on a shared machine.
t.setTimeout(900_000);

t.test('the host-candidate walkthrough runs to a decision that names its reasons', {timeout: 900_000}, async t => {
	const work = await tempDir(t, 'hlab-run-pair-');
	// As from a user's shell: without tap's loaders in NODE_OPTIONS.
	const run = await runInGroup({argv: ['env', '-u', 'NODE_OPTIONS', 'bash', join(installRoot, 'examples', 'run-pair', 'run.sh'), work], cwd: work, deadlineMs: 840_000});
	const stdout = run.stdout?.toString() ?? '';
	const stderr = run.stderr?.toString() ?? '';
	t.ok(run.record.exit_code === 0 || run.record.exit_code === 1, 'the walkthrough ends with the decision\'s status (0 accept, 1 reject)', {stdout: stdout.slice(-4000), stderr: stderr.slice(-4000)});
	t.match(stdout, /^ harness\/builtin-agent\.ts +\| +1 -$/m, 'the candidate\'s engine change is the one prompt line');
	const decision = /^pair finished; decision: (accept|reject) \(the baseline executable's compare decided \1: (.+)\)$/m.exec(stdout);
	t.ok(decision, 'a decision line with its reasons', {stdout: stdout.slice(-2000)});
	t.equal(decision?.[1], run.record.exit_code === 0 ? 'accept' : 'reject', 'the exit status is the decision');
	const named = [...(decision?.[2] ?? '').matchAll(/(?:^|; )(\w+): /g)].map(match => match[1]);
	// An accept names every check; a reject the ones that failed (on a loaded machine the duration ratio may be one of them).
	if (decision?.[1] === 'accept') for (const rule of ['verification', 'timing', 'require_all_pass', 'improvement']) t.ok(named.includes(rule), `the accept names its ${rule} check`);
	else t.ok(named.length > 0, `the reject names the checks that failed: ${named.join(', ')}`);
	const pair = JSON.parse(await readFile(join(work, 'pair-001', 'pair.json'), 'utf8')) as {status: string; comparison: {decision: string}};
	t.match(pair, {status: 'finished', comparison: {decision: decision?.[1]}});
});
