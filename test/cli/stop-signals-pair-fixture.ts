import {chmod, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {Test} from 'tap';
import {installRoot} from '../../files/install-root.js';
import {freeze} from '../e2e/experiment-fixture.js';
import {hlab} from '../hlab.js';
import {tempDir} from '../temp-dir.js';
import {bin, sendSignals, sleeperCount, sleepersOf, stallingCandidate, startHlab, survivors} from './stop-signals-fixture.js';

export interface Inputs {
	dir: string;
	plan: string;
	launcher: string;
	source: string;
}

/** One plan, a baseline executable (this build, run by this Node) and its source archive, for every pair below. */
export async function inputs(t: Test): Promise<Inputs> {
	const dir = await tempDir(t, 'hlab-stop-pair-');
	const plan = await freeze({dir, tasks: 'answer_from_prompt', policy: {concurrency: 1}});
	const launcher = join(dir, 'hlab-launcher.mjs');
	await writeFile(launcher, `#!${process.execPath}\nimport ${JSON.stringify(bin)};\n`);
	await chmod(launcher, 0o755);
	const snapshot = await hlab(['snapshot-source', '--out', join(dir, 'source.tar'), '--dir', installRoot]);
	t.equal(snapshot.record.exit_code, 0, snapshot.stderr);
	return {dir, plan, launcher, source: join(dir, 'source.tar')};
}

/** `hlab pair` with the candidate side's task in flight, its two processes ignoring SIGTERM; then the signals. */
export async function interrupted(t: Test, given: Inputs, name: string, signals: NodeJS.Signals[]) {
	const pidFile = join(given.dir, `${name}.pids`);
	const candidate = join(given.dir, `${name}-stall.ts`);
	await writeFile(candidate, stallingCandidate(pidFile));
	const output = join(given.dir, name);
	const run = await startHlab(['pair', '--plan', given.plan, '--baseline', given.launcher, '--source-baseline', given.source, '--candidate', candidate, '--output', output, '--timeout', '90']);
	const sleepers = await sleepersOf(t, pidFile, sleeperCount());
	const root = JSON.parse(await readFile(join(output, 'candidate', 'runtime-root.json'), 'utf8')) as {dir: string | null};
	const lastSentAt = await sendSignals(run.pid, signals);
	const {record, stderr} = await run.ended;
	const afterLastMs = performance.now() - lastSentAt;
	t.same(await survivors(sleepers), [], 'no process of the running side outlives the pair');
	const pair = JSON.parse(await readFile(join(output, 'pair.json'), 'utf8'));
	return {output, record, stderr: stderr?.toString() ?? '', afterLastMs, root: root.dir, pair, sideReport: join(output, 'candidate', 'report.json')};
}

export async function readReport(path: string): Promise<{completion: string; tasks: {reason: string | null; message: string | null}[]}> {
	return JSON.parse(await readFile(path, 'utf8'));
}

