import {chmod, readFile, writeFile} from 'node:fs/promises';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {installRoot} from '../../files/install-root.js';
import {freeze} from '../e2e/experiment-fixture.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {bin, sendSignals, sleeperCount, sleepersOf, stallingCandidate, startHlab, survivors} from './stop-signals-fixture.js';

checkNoLeaks(t);

interface Inputs {
	dir: string;
	plan: string;
	launcher: string;
	source: string;
}

/** One plan, a baseline executable (this build, run by this Node) and its source archive, for every pair below. */
async function inputs(t: Test): Promise<Inputs> {
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
async function interrupted(t: Test, given: Inputs, name: string, signals: NodeJS.Signals[]) {
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

async function readReport(path: string): Promise<{completion: string; tasks: {reason: string | null; message: string | null}[]}> {
	return JSON.parse(await readFile(path, 'utf8'));
}

t.test('hlab pair', async t => {
	const given = await inputs(t);

	t.test('SIGHUP: the running side writes its report, pair.json records the interruption', async t => {
		const run = await interrupted(t, given, 'hup', ['SIGHUP']);
		t.equal(run.record.exit_code, 1, run.stderr);
		t.match(run.stderr, /^hlab: SIGHUP: stopping: .*; press Ctrl-C again to stop faster$/m);
		t.match(run.pair, {status: 'interrupted', interruption: {signal: 'SIGHUP'}});
		const report = await readReport(run.sideReport);
		t.equal(report.completion, 'interrupted');
		t.match(report.tasks, [{reason: 'aborted', message: /within 2000 ms/}]);
		t.ok(run.root === null || !existsSync(run.root), 'the side removed its runtime root');
	});

	t.test('a second SIGINT is passed on to the running side, whose faster stop still writes its report', async t => {
		const run = await interrupted(t, given, 'int2', ['SIGINT', 'SIGINT']);
		t.equal(run.record.exit_code, 1, run.stderr);
		t.match(run.stderr, /^hlab: SIGINT again: stopping faster: .*; press Ctrl-C again to stop now$/m);
		t.match(run.pair, {status: 'interrupted', interruption: {signal: 'SIGINT'}});
		const report = await readReport(run.sideReport);
		t.equal(report.completion, 'interrupted');
		t.match(report.tasks, [{reason: 'aborted', message: /within 250 ms/}], 'the side cut its grace');
		t.ok(run.root === null || !existsSync(run.root), 'the side removed its runtime root');
	});

	t.test('a third SIGINT exits at once with 130 and kills the running side and its tasks; no report', async t => {
		const run = await interrupted(t, given, 'int3', ['SIGINT', 'SIGINT', 'SIGINT']);
		t.equal(run.record.exit_code, 130, run.stderr);
		t.ok(run.afterLastMs < 2000, `ended ${Math.round(run.afterLastMs)} ms after the third signal`);
		t.match(run.stderr, /^hlab: SIGINT a third time: stopping now: every process it started was killed; pair\.json keeps what it had/m);
		t.equal(run.pair.status, 'running', 'pair.json is as the third signal found it');
		t.notOk(existsSync(run.sideReport), 'the running side wrote no report');
		const recover = await hlab(['eval', '--recover', join(run.output, 'candidate'), '--json']);
		t.equal(recover.record.exit_code, 1, recover.stderr);
		t.equal((await readReport(run.sideReport)).completion, 'recovered', 'its attempt folder recovers');
		t.ok(run.root === null || !existsSync(run.root), 'recovery removed its runtime root');
	});
});
