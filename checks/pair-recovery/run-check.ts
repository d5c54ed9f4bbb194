import {existsSync} from 'node:fs';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {scriptedModel} from '../../engine/provider-config.js';
import {buildPlan, writePlan} from '../../supervisor/plan/freeze.js';
import {writeBytes, writeJson} from '../../files/write-json.js';
import {PairRecord} from '../../supervisor/pair/index.js';
import {runInGroup} from '../../process/index.js';
import {findMarked} from '../../process/find-members.js';
import {readStat, readTable} from '../../process/proc-table.js';
import {identityOf, signalIdentity, type ProcessIdentity} from '../../process/process-identity.js';
import {git} from '../../supervisor/source/git.js';
import {snapshotSource} from '../../supervisor/source/snapshot-source.js';
import {PairRecoveryCheckResult, type RecoveryScenarioResult} from './result-schema.js';
import {recoveryScenarios, type RecoveryScenario} from './scenarios.js';
import {writeSyntheticSide} from './synthetic-side.js';
import {checkResultSchema} from '../check-result.js';
import {hlabArgv} from '../hlab-command.js';

export interface PairRecoveryOptions {
	/** Must not exist; the check creates it. */
	outputDir: string;
	/** Test-only: run the pair without copying ledgers into pair.json, to prove the check catches it. */
	disableLedgerSync?: boolean;
	only?: string[];
}

/** Tasks in the synthetic plan (the first built-in tasks; nothing runs them). */
const selection = 'test_failure_fix,multi_file_fix,json_config_migration,sales_report';

/**
 * Runs the real `hlab pair` against synthetic `hlab eval` executables that record tasks and then finish, crash
 * or hang, and interrupts or kills the pair itself, then reads pair.json from disk to verify that finished
 * task records and usage survived, unfinished tasks stayed failed and the denominator never shrank.
 */
export async function runPairRecoveryCheck(options: PairRecoveryOptions): Promise<PairRecoveryCheckResult> {
	const out = resolve(options.outputDir);
	await mkdir(join(out, '..'), {recursive: true});
	await mkdir(out);
	const fixtures = join(out, 'fixtures');
	await mkdir(fixtures);
	const plan = await buildPlan({provider: {kind: 'scripted', model: scriptedModel}, selection, maxSteps: 6, deadlineMs: 60_000, policyPath: null, controllerPath: null, configPath: null});
	const planPath = join(fixtures, 'plan.json');
	await writePlan(planPath, plan);
	const source = await syntheticSource(fixtures);
	const context = {out, fixtures, planPath, source, size: plan.task_ids.length, disableLedgerSync: options.disableLedgerSync === true};
	const scenarios = recoveryScenarios().filter(scenario => !options.only || options.only.includes(scenario.name));
	// Side by side: a scenario is mostly waiting (its sides' sleeps, the pair's polls, a timeout), and each has its own
	// pair folder, executables and process marker.
	const results: RecoveryScenarioResult[] = await Promise.all(scenarios.map(scenario => runScenario(scenario, context)));
	const result = PairRecoveryCheckResult.parse({
		schema: checkResultSchema,
		check: 'pair-recovery',
		label: 'framework verification: synthetic hlab eval executables, no model call; not a model experiment',
		ledger_sync_disabled: options.disableLedgerSync === true,
		passed: results.length > 0 && results.every(scenario => scenario.passed),
		scenarios: results,
	});
	await writeJson(join(out, 'result.json'), result, {durable: true});
	return result;
}

/** A real source archive of a tiny checkout, so the pair's archive checks run as they do for real sources. */
async function syntheticSource(fixtures: string): Promise<string> {
	const repo = join(fixtures, 'checkout');
	await mkdir(repo);
	await git(repo, ['init', '-q']);
	await writeFile(join(repo, 'README'), 'synthetic checkout for the pair-recovery check\n');
	await git(repo, ['add', 'README']);
	await git(repo, ['-c', 'user.name=hlab check', '-c', 'user.email=check@hlab.invalid', 'commit', '-q', '-m', 'synthetic']);
	await writeFile(join(repo, 'untracked.txt'), 'an untracked file\n');
	const archive = join(fixtures, 'source.tar');
	await snapshotSource({dir: repo, out: archive});
	return archive;
}

interface ScenarioContext {
	out: string;
	fixtures: string;
	planPath: string;
	source: string;
	size: number;
	disableLedgerSync: boolean;
}

async function runScenario(scenario: RecoveryScenario, context: ScenarioContext): Promise<RecoveryScenarioResult> {
	const exe = await writeSyntheticSide(context.fixtures, `${scenario.name}-hlab`, scenario.behaviours);
	const candidate = join(context.fixtures, `${scenario.name}-candidate.ts`);
	await writeFile(candidate, '// a synthetic candidate: the synthetic executable never loads it\nexport default {};\n');
	const pairDir = join(context.out, scenario.name);
	const marker = `HLAB_PAIR_CHECK_${process.pid}_${scenario.name.replaceAll('-', '_').toUpperCase()}`;
	const argv = hlabArgv([
		'pair',
		'--plan', context.planPath, '--baseline', exe, '--source-baseline', context.source, '--candidate', candidate,
		'--output', pairDir, '--timeout', String(scenario.timeoutS), '--json',
		...(context.disableLedgerSync ? ['--disable-ledger-sync'] : []),
	]);
	const abort = new AbortController();
	let leader: ProcessIdentity | null = null;
	const problems: string[] = [];
	const interrupter = scenario.interrupt === null ? Promise.resolve() : (async () => {
		const {after, how} = scenario.interrupt!;
		const ledger = join(pairDir, 'candidate', 'ledger.jsonl');
		// Wait on the side's own ledger, never on pair.json, so a pair that fails to record cannot hide it.
		for (let waited = 0; waited < 60_000; waited += 100) {
			if (existsSync(ledger) && (await readFile(ledger, 'utf8')).split('\n').filter(Boolean).length >= after) break;
			await sleep(100);
		}
		// Give the pair several poll intervals to record what the side wrote.
		await sleep(1000);
		if (how === 'SIGTERM') abort.abort();
		else if (leader === null || !signalIdentity(leader, 'SIGKILL')) problems.push('the pair process could not be killed');
	})();
	const run = await runInGroup({
		argv,
		env: {[marker]: '1'},
		deadlineMs: 180_000,
		// A cancelled pair needs time to end its running side and write the interruption; a pair killed outright writes
		// nothing more, so the side it left running is ended without waiting that grace out (it held the check 20 s).
		graceMs: scenario.interrupt?.how === 'SIGKILL' ? 1000 : 20_000,
		stdoutLimit: 16 * 1024 * 1024,
		stderrLimit: 1024 * 1024,
		signal: abort.signal,
		onSpawn: pid => {
			const stat = readStat(pid);
			if (stat !== null) leader = identityOf(stat);
		},
	});
	await interrupter;
	await writeJson(join(context.out, `${scenario.name}.process.json`), run.record);
	await writeBytes(join(context.out, `${scenario.name}.stderr.log`), run.stderr ?? Buffer.alloc(0));
	const survivors = findMarked(`${marker}=1`, readTable()).map(stat => stat.pid);
	if (survivors.length > 0) problems.push(`processes survived the scenario: ${survivors.join(', ')}`);
	let pair: PairRecord | null = null;
	try {
		pair = PairRecord.parse(JSON.parse(await readFile(join(pairDir, 'pair.json'), 'utf8')));
	} catch (error) {
		problems.push(`pair.json is missing or unreadable after the scenario: ${(error as Error).message.split('\n')[0]}`);
	}
	if (pair !== null) problems.push(...scenario.verify(pair, context.size));
	const count = (side: 'baseline' | 'candidate', status: string): number => pair?.tasks.filter(task => task[side].status === status).length ?? 0;
	return {
		name: scenario.name,
		description: scenario.description,
		pair_exit_code: run.record.exit_code,
		pair_signal: run.record.signal,
		pair_status: pair?.status ?? null,
		tasks: Object.fromEntries((['baseline', 'candidate'] as const).map(side => [side, {passed: count(side, 'passed'), failed: count(side, 'failed'), missing: count(side, 'missing')}])),
		denominator: pair?.tasks.length ?? 0,
		survivors,
		passed: problems.length === 0,
		problems,
	};
}
