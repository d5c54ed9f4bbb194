import {mkdir, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {chooseContainment, runInGroup, type Containment} from '../../process/index.js';
import {findMarked} from '../../process/find-members.js';
import {isRunning, readStat, readTable} from '../../process/proc-table.js';
import {cleanupScenarios, type CleanupScenario} from './scenarios.js';
import {CleanupCheckResult, type ScenarioResult} from './result-schema.js';
import {checkResultSchema} from '../check-result.js';
import {writeJson} from '../../files/write-json.js';

export interface CleanupCheckOptions {
	/** Must not exist; the check creates it. */
	outputDir: string;
	/** Test-only: run the supervisor without its sweep, to prove the check reports the leak. */
	disableSweep?: boolean;
	/** Run only these scenarios (all by default). */
	only?: string[];
}

/**
 * Runs synthetic process trees through the supervisor, then checks `/proc` itself
 * (not the supervisor's own account) for any member still running.
 */
export async function runCleanupCheck(options: CleanupCheckOptions): Promise<CleanupCheckResult> {
	// Absolute, because each scenario runs in its own folder and is handed paths inside this one.
	const out = path.resolve(options.outputDir);
	await mkdir(path.dirname(out), {recursive: true});
	await mkdir(out); // Refuses an existing directory (EEXIST).
	const scenarios = cleanupScenarios.filter(scenario => !options.only || options.only.includes(scenario.name));
	// HLAB_CONTAINMENT forces a backend, so that each can be checked on one machine.
	const containment = chooseContainment();
	const results: ScenarioResult[] = [];
	for (const scenario of scenarios) results.push(await runScenario(scenario, containment, out, options));
	const result = CleanupCheckResult.parse({
		schema: checkResultSchema,
		check: 'process-cleanup',
		label: 'framework verification: synthetic process trees, no model call; not a model experiment',
		containment,
		sweep_disabled: options.disableSweep === true,
		passed: results.every(scenario => scenario.passed),
		scenarios: results,
	});
	await writeJson(path.join(out, 'result.json'), result, {durable: true});
	return result;
}

async function runScenario(scenario: CleanupScenario, containment: Containment, out: string, options: CleanupCheckOptions): Promise<ScenarioResult> {
	const dir = path.join(out, scenario.name);
	await mkdir(dir);
	// Absolute: the scenario runs in `dir`, where a relative --output would point elsewhere.
	const pidFile = path.resolve(dir, 'pids');
	await writeFile(pidFile, '');
	const marker = `HLAB_CHECK_SCENARIO_${process.pid}_${scenario.name.toUpperCase()}`;
	const started = performance.now();
	const run = await runInGroup({
		argv: ['sh', '-c', scenario.script],
		cwd: dir,
		env: {PIDS: pidFile, [marker]: '1'},
		deadlineMs: scenario.timeoutMs,
		graceMs: scenario.graceMs,
		stdoutLimit: 64 * 1024,
		stderrLimit: 64 * 1024,
		sweep: options.disableSweep !== true,
		containment,
		trackDescendants: scenario.trackDescendants ?? true,
	});
	const elapsedMs = performance.now() - started;
	await writeJson(path.join(dir, 'process.json'), run.record, {durable: true});
	const pids = (await readFile(pidFile, 'utf8')).split('\n').filter(Boolean).map(Number);
	const survivors = findSurvivors(pids, `${marker}=1`);
	// A leak must not outlive the check that found it.
	for (const pid of survivors) process.kill(pid, 'SIGKILL');
	const problems: string[] = [];
	const withinBackend = scenario.caughtBy.includes(containment);
	if (survivors.length > 0) problems.push(`${survivors.length} process(es) survived: ${survivors.join(', ')}${withinBackend ? '' : ` (expected: the ${containment} backend cannot catch this escape; only ${scenario.caughtBy.join(', ')} can)`}`);
	if (run.record.failure !== scenario.expectedFailure) problems.push(`expected failure ${scenario.expectedFailure}, got ${run.record.failure}`);
	if (elapsedMs > scenario.maxWallMs) problems.push(`the supervisor returned after ${Math.round(elapsedMs)} ms, over ${scenario.maxWallMs} ms`);
	if (pids.length === 0) problems.push('the scenario recorded no process: it did not run');
	return {
		name: scenario.name,
		description: scenario.description,
		command: run.record.argv,
		started: pids,
		killed: run.record.killed,
		failure: run.record.failure,
		exit_code: run.record.exit_code,
		wall_ms: run.record.wall_ms,
		cleanup_ms: run.record.cleanup_ms,
		elapsed_ms: elapsedMs,
		survivors,
		within_backend: withinBackend,
		passed: problems.length === 0,
		problems,
	};
}

/** Everything the scenario started that still runs: by its recorded pids and by its own marker (and their descendants). */
function findSurvivors(started: number[], markerEntry: string): number[] {
	const alive = new Set(findMarked(markerEntry, readTable()).map(stat => stat.pid));
	for (const pid of started) if (isRunning(readStat(pid))) alive.add(pid);
	return [...alive].sort((a, b) => a - b);
}
