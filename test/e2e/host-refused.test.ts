import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {installRoot} from '../../files/install-root.js';
import {runAttempt} from '../../supervisor/attempt/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {truthful, writeSyntheticHost} from '../supervisor/host/synthetic-host.js';
import {freeze, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

t.test('a host attempt admission refuses: the spawner started beside admission is closed, the provider never started', async t => {
	const {dir, plan} = await refusedPlan(t);
	const host = await writeSyntheticHost(dir, 'host', truthful);
	const {dir: evidence, report} = await runAttempt({planPath: plan, artifacts: join(dir, 'attempt'), candidatePath: null, candidateHost: host, keepWorkdirs: false, configPath: null, quiet: true, cwd: dir});
	t.equal(report.admission.admitted, false);
	t.ok(report.tasks.every(task => task.reason === 'admission'), 'admission is every task\'s reason');
	t.notOk(existsSync(join(evidence, 'services')), 'the scripted provider was never started');
	// The spawner is a Node process running spawner-main.js under this process; none is left once the attempt returns.
	t.same(spawnersOfThisProcess(), [], 'no spawner outlives the refused attempt');
	// Closed by the attempt, not swept up by its last resort (which would say so in the log).
	const log = await readFile(join(evidence, 'log.jsonl'), 'utf8');
	t.notMatch(log, 'outlived its report', 'the attempt\'s final sweep found nothing of it running');
});

t.test('an agent attempt admission refuses: its spawner, started beside admission too, is closed the same way', async t => {
	const {dir, plan} = await refusedPlan(t);
	const agentSpec = join(installRoot, 'examples', 'agents', 'command.json');
	const {dir: evidence, report} = await runAttempt({planPath: plan, artifacts: join(dir, 'attempt'), candidatePath: null, agentSpec, keepWorkdirs: false, configPath: null, quiet: true, cwd: dir});
	t.equal(report.admission.admitted, false);
	t.ok(report.tasks.every(task => task.reason === 'admission'), 'admission is every task\'s reason');
	t.same(spawnersOfThisProcess(), [], 'no spawner outlives the refused attempt');
	t.notMatch(await readFile(join(evidence, 'log.jsonl'), 'utf8'), 'outlived its report', 'the attempt\'s final sweep found nothing of it running');
});

/** A plan whose budget was edited after the freeze: admission refuses every attempt of it. */
async function refusedPlan(t: Test): Promise<{dir: string; plan: string}> {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt', repeat: 2, maxSteps: 2});
	const json = JSON.parse(await readFile(plan, 'utf8'));
	json.budgets.max_steps = 50;
	await writeFile(plan, JSON.stringify(json, null, 2));
	return {dir, plan};
}

/** The pids of spawner processes (`spawner-main.js`) this test process started that still run. */
function spawnersOfThisProcess(): number[] {
	const found: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
			if (ppid === process.pid && argv.some(arg => arg.endsWith('spawner-main.js'))) found.push(Number(entry));
		} catch {
			// Gone while read.
		}
	}
	return found;
}
