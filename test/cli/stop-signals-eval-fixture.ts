import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {Test} from 'tap';
import {freeze, scratch} from '../e2e/experiment-fixture.js';
import {sendSignals, sleeperCount, sleepersOf, stallingCandidate, startHlab, survivors} from './stop-signals-fixture.js';

// XDG_RUNTIME_DIR names a file, so the runtime root is on the shared-memory tmpfs whatever the machine sets.
export const shmOnly = (dir: string): Record<string, string> => ({XDG_RUNTIME_DIR: join(dir, 'plan.json')});

/** `hlab eval --plan` with a task in flight whose processes ignore SIGTERM; then the signals, `gapMs` apart. */
export async function interrupted(t: Test, signals: NodeJS.Signals[], env: Record<string, string> = {}, orphan = true) {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt', policy: {concurrency: 1}});
	const pidFile = join(dir, 'pids');
	const candidate = join(dir, 'stall.ts');
	await writeFile(candidate, stallingCandidate(pidFile, orphan));
	const artifacts = join(dir, 'attempt');
	const run = await startHlab(['eval', '--plan', plan, '--artifacts', artifacts, '--candidate', candidate, '--json'], {...shmOnly(dir), ...env});
	const sleepers = await sleepersOf(t, pidFile, sleeperCount(orphan));
	const root = JSON.parse(await readFile(join(artifacts, 'runtime-root.json'), 'utf8')) as {dir: string};
	t.ok(existsSync(root.dir), 'the runtime root is on the tmpfs while the task runs');
	const lastSentAt = await sendSignals(run.pid, signals);
	const {record, stderr} = await run.ended;
	const afterLastMs = performance.now() - lastSentAt;
	t.same(await survivors(sleepers), [], 'no process of the task outlives the supervisor');
	return {artifacts, record, stderr: stderr?.toString() ?? '', afterLastMs, root: root.dir, reportPath: join(artifacts, 'report.json')};
}

export async function readReport(path: string): Promise<{completion: string; tasks: {status: string; reason: string | null; message: string | null}[]}> {
	return JSON.parse(await readFile(path, 'utf8'));
}
