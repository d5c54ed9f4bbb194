import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, watch, type FSWatcher} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t, {type Test} from 'tap';
import {runInGroup} from '../../process/index.js';
import {findMarked, identifyLeader} from '../../process/kill-marked.js';
import {readTable} from '../../process/proc-table.js';
import {signalIdentity, type ProcessIdentity} from '../../process/process-identity.js';
import {checkNoLeaks} from '../leak-check.js';
import {freeze, scratch} from './experiment-fixture.js';
import {evalEntry} from './install-copy.js';

checkNoLeaks(t);

/** What the supervisor has written so far, as a watcher of its evidence sees it: the phases of an attempt. */
type Phase = 'spawn' | 'opening' | 'dir' | 'attempt.json' | 'result:1' | 'ledger:1' | 'ledger:2' | 'report-write' | 'report.json';

/** One crash point: the supervisor is SIGKILLed `delayMs` after the phase begins. */
interface KillPoint {
	phase: Phase;
	delayMs: number;
}

// From the first milliseconds (Node still starting) through admission, the tasks, the report write and the close.
const points: KillPoint[] = [
	...[0, 20, 150, 500].map(delayMs => ({phase: 'spawn' as const, delayMs})),
	{phase: 'opening', delayMs: 0},
	...[0, 2, 5, 20, 50, 150, 300, 600, 1000].map(delayMs => ({phase: 'dir' as const, delayMs})),
	...[0, 20, 100, 400, 1000].map(delayMs => ({phase: 'attempt.json' as const, delayMs})),
	...[0, 50, 200].map(delayMs => ({phase: 'ledger:1' as const, delayMs})), {phase: 'ledger:2', delayMs: 0},
	// A task's result.json is written (not fsynced) before its ledger record: a kill in between must leave it unrecorded.
	...[0, 0, 1].map(delayMs => ({phase: 'result:1' as const, delayMs})),
	...[0, 0, 0].map(delayMs => ({phase: 'report-write' as const, delayMs})),
	...[0, 3, 10, 30].map(delayMs => ({phase: 'report.json' as const, delayMs})),
];

// Two tasks, one of which runs node processes of its own (the task processes a crash leaves behind).
const ids = ['answer_from_prompt', 'test_failure_fix'];

function lines(path: string): string[] {
	try {
		return readFileSync(path, 'utf8').split('\n').filter(line => line.trim() !== '');
	} catch {
		return [];
	}
}

function reached(phase: Phase, parent: string, dir: string): boolean {
	switch (phase) {
		case 'spawn': return true;
		case 'opening': return readdirSync(parent).some(name => name.startsWith('.attempt.opening-'));
		case 'dir': return existsSync(dir);
		case 'attempt.json': return existsSync(join(dir, 'attempt.json'));
		case 'result:1': return resultWritten(dir).length >= 1;
		case 'ledger:1': return lines(join(dir, 'ledger.jsonl')).length >= 1;
		case 'ledger:2': return lines(join(dir, 'ledger.jsonl')).length >= 2;
		// The report's temporary file: written, fsynced, then linked into place.
		case 'report-write': return existsSync(dir) && readdirSync(dir).some(name => name.startsWith('.report.json.'));
		case 'report.json': return existsSync(join(dir, 'report.json'));
	}
}

/** The task folders that hold a result.json. */
function resultWritten(dir: string): string[] {
	const tasks = join(dir, 'tasks');
	if (!existsSync(tasks)) return [];
	return readdirSync(tasks).filter(name => existsSync(join(tasks, name, 'result.json')));
}

/**
 * Resolves when the phase is seen: file events of the folder and of the evidence directory, and a 5 ms look besides.
 * The report's temporary file may be renamed into place before a look (on a tmpfs it lives microseconds): its event says it began.
 */
async function waitForPhase(phase: Phase, parent: string, dir: string, ended: () => boolean): Promise<boolean> {
	const watchers: FSWatcher[] = [];
	let dirWatched = false;
	try {
		return await new Promise<boolean>(resolve => {
			const look = (_event?: string, name?: string | null): void => {
				try {
					if (phase === 'report-write' && name?.startsWith('.report.json.')) return resolve(true);
					if (reached(phase, parent, dir)) return resolve(true);
					if (ended()) return resolve(false);
					// The evidence directory's own events, once it exists: its files' names come from them alone.
					if (!dirWatched && existsSync(dir)) {
						watchers.push(watch(dir, look));
						dirWatched = true;
					}
				} catch {}
			};
			watchers.push(watch(parent, look));
			const timer = setInterval(look, 5);
			watchers.push({close: () => clearInterval(timer)} as FSWatcher);
			look();
		});
	} finally {
		for (const watcher of watchers) watcher.close();
	}
}

interface Outcome {
	point: KillPoint;
	/** What recovery found: nothing (killed before the directory appeared), a report already, or an attempt to recover. */
	kind: 'never-started' | 'already-reported' | 'recovered';
	recordsBefore: number;
	seen: boolean;
}

async function killAndRecover(t: Test, plan: string, base: string, index: number, point: KillPoint): Promise<Outcome> {
	const parent = join(base, `k${index}`);
	mkdirSync(parent);
	const dir = join(parent, 'attempt');
	// A runtime root of this kill's own on the shared-memory tmpfs, so "nothing left" is about this attempt alone.
	const runtimeRoot = `/dev/shm/hlab-crash-points-${process.pid}-${index}`;
	mkdirSync(runtimeRoot);
	t.teardown(() => rmSync(runtimeRoot, {recursive: true, force: true}));
	// Every process of this attempt inherits the marker, whatever phase started it.
	const marker = `HLAB_CRASH_POINT_${process.pid}_${index}`;
	let leader: ProcessIdentity | null = null;
	let ended = false;
	const running = runInGroup({
		argv: [process.execPath, evalEntry(), 'eval', '--plan', plan, '--artifacts', dir, '--json'],
		env: {HLAB_RUNTIME_ROOT: runtimeRoot, [marker]: '1'},
		// No sweep: the supervisor dies alone, as it would from the OOM killer; recovery must find what it left.
		deadlineMs: 120_000, sweep: false, onSpawn: spawned => { leader = identifyLeader(spawned); },
	}).finally(() => { ended = true; });
	const seen = await waitForPhase(point.phase, parent, dir, () => ended);
	if (point.delayMs > 0) await sleep(point.delayMs);
	// Only the very process started: after a normal end its pid may already name another.
	if (!ended && leader !== null) signalIdentity(leader, 'SIGKILL');
	await running;
	const written = existsSync(dir) ? resultWritten(dir) : [];
	const before = lines(join(dir, 'ledger.jsonl')).flatMap(line => {
		try {
			return [JSON.parse(line).result];
		} catch {
			return [];
		}
	});
	const recover = await runInGroup({argv: [process.execPath, evalEntry(), 'eval', '--recover', dir, '--json'], deadlineMs: 60_000});
	const stderr = recover.stderr?.toString() ?? '';
	const name = `${point.phase}+${point.delayMs}ms`;
	let kind: Outcome['kind'];
	if (!existsSync(dir)) {
		kind = 'never-started';
		t.equal(recover.record.exit_code, 2, `${name}: no directory, nothing to recover`);
		t.match(stderr, /does not exist: no attempt started there/, name);
		t.same(readdirSync(parent), [], `${name}: no opening is left beside it`);
	} else {
		kind = stderr.includes('already has a report.json') ? 'already-reported' : 'recovered';
		t.equal(recover.record.exit_code, kind === 'recovered' ? 1 : 2, `${name}: ${stderr}`);
		const report = existsSync(join(dir, 'report.json')) ? JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) : {task_ids: null, tasks: []};
		t.same(report.task_ids, ids, `${name}: the whole denominator`);
		t.same(report.tasks.map((task: {task_id: string}) => task.task_id), ids, `${name}: every task of it is in the report`);
		for (const result of before) t.same(report.tasks[result.index], result, `${name}: ledger record ${result.task_id} is kept`);
		// A result.json without its ledger record (killed between the two) is not taken: the task is unfinished, its state kept.
		const unrecorded = written.filter(folder => !before.some(result => folder.startsWith(`${String(result.index + 1).padStart(3, '0')}-`)));
		for (const folder of kind === 'recovered' ? unrecorded : []) {
			const index = Number(folder.slice(0, 3)) - 1;
			t.equal(report.tasks[index]?.reason, 'unfinished', `${name}: ${folder} wrote result.json but was not recorded: unfinished`);
			t.ok(existsSync(join(dir, 'tasks', folder, 'runtime-state')), `${name}: ${folder}'s runtime state is kept for investigation`);
		}
		if (unrecorded.length > 0) between += 1;
		t.notOk(existsSync(join(dir, 'lock.json')), `${name}: the lock is gone`);
	}
	t.same(readdirSync(runtimeRoot), [], `${name}: nothing of the attempt is left on /dev/shm`);
	let left = findMarked(`${marker}=1`, readTable());
	for (let wait = 0; left.length > 0 && wait < 20; wait += 1) {
		await sleep(50);
		left = findMarked(`${marker}=1`, readTable());
	}
	t.same(left.map(stat => `${stat.pid} ${stat.comm}`), [], `${name}: no process of the attempt survives its recovery`);
	return {point, kind, recordsBefore: before.length, seen};
}

/** Kills that landed after a task's result.json and before its ledger record. */
let between = 0;

t.test('a SIGKILL at any of 30+ instants, from the first millisecond to the close, leaves what --recover turns into a report', async t => {
	const base = await scratch(t);
	const plan = await freeze({dir: base, tasks: ids.join(','), policy: {concurrency: 2}});
	const outcomes: Outcome[] = [];
	// Four attempts at a time: each is mostly waiting on its children, and 2 cores stay usable.
	const queue = points.map((point, index) => ({point, index}));
	const lanes = Array.from({length: 4}, async () => {
		for (let next = queue.shift(); next !== undefined; next = queue.shift()) outcomes.push(await killAndRecover(t, plan, base, next.index, next.point));
	});
	await Promise.all(lanes);
	const count = (kind: Outcome['kind']): number => outcomes.filter(outcome => outcome.kind === kind).length;
	t.comment(`${points.length} kills: ${count('never-started')} before the directory appeared, ${count('recovered')} recovered, ${count('already-reported')} after the report`);
	t.comment(outcomes.map(({point, kind, recordsBefore}) => `${point.phase}+${point.delayMs}: ${kind}${recordsBefore > 0 ? ` (${recordsBefore} recorded)` : ''}`).join('; '));
	t.ok(points.length >= 30);
	t.ok(count('never-started') >= 1, 'some kills came before the directory appeared');
	t.ok(outcomes.some(outcome => outcome.kind === 'recovered' && outcome.point.phase === 'dir'), 'some came during admission (before attempt.json)');
	t.ok(outcomes.some(outcome => outcome.kind === 'recovered' && outcome.recordsBefore > 0), 'some came with tasks recorded');
	t.ok(outcomes.some(outcome => outcome.point.phase === 'report-write' && outcome.seen), 'some came while the report was written');
	t.ok(count('already-reported') >= 1, 'some came after the report, while the attempt closed');
	t.comment(`${between} kills came between a task's result.json and its ledger record`);
});
