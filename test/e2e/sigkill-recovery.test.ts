import {readFileSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {runInGroup} from '../../process/index.js';
import {findMarked} from '../../process/kill-marked.js';
import {builtinTasks} from '../../tasks/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {freeze, scratch} from './experiment-fixture.js';
import {evalEntry} from './install-copy.js';

checkNoLeaks(t);

function commandLine(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'latin1');
	} catch {
		return '';
	}
}

async function ledgerLines(path: string): Promise<number> {
	try {
		return (await readFile(path, 'utf8')).split('\n').filter(line => line.trim() !== '').length;
	} catch {
		return 0;
	}
}

t.test('an attempt killed with SIGKILL is recovered from its ledger and nothing of it survives', async t => {
	const dir = await scratch(t);
	const ids = builtinTasks.map(task => task.id);
	const plan = await freeze({dir, tasks: 'all', policy: {concurrency: 1}});
	const artifacts = join(dir, 'attempt');
	let pid = 0;
	// No sweep: the supervisor dies alone, as it would from the OOM killer; recovery must find what it left.
	const running = runInGroup({
		argv: [process.execPath, evalEntry(), 'eval', '--plan', plan, '--artifacts', artifacts, '--json'],
		deadlineMs: 120_000, sweep: false, onSpawn: spawned => { pid = spawned; },
	});
	const ledger = join(artifacts, 'ledger.jsonl');
	for (let waited = 0; await ledgerLines(ledger) < 1 && waited < 60_000; waited += 20) await sleep(20);
	const recorded = await ledgerLines(ledger);
	t.ok(recorded >= 1 && recorded < ids.length, `killed in the middle (${recorded} of ${ids.length} recorded)`);
	const attempt = JSON.parse(await readFile(join(artifacts, 'attempt.json'), 'utf8'));
	const providers = (): number[] => findMarked(attempt.process_marker).map(stat => stat.pid).filter(found => commandLine(found).includes('server-main.js'));
	t.equal(providers().length, 1, 'the attempt runs its scripted provider as a process');
	process.kill(pid, 'SIGKILL');
	const killed = await running;
	t.equal(killed.record.signal, 'SIGKILL');
	// Orphaned, the provider notices its supervisor is gone and ends itself, recovery or not.
	for (let waited = 0; providers().length > 0 && waited < 5000; waited += 100) await sleep(100);
	t.same(providers(), [], 'the orphaned scripted provider ended itself');

	const recover = await runInGroup({argv: [process.execPath, evalEntry(), 'eval', '--recover', artifacts, '--json'], deadlineMs: 60_000});
	t.equal(recover.record.exit_code, 1, recover.stderr?.toString() ?? "");
	const report = JSON.parse(await readFile(join(artifacts, 'report.json'), 'utf8'));
	t.equal(report.completion, 'recovered');
	t.same(report.task_ids, ids);
	const kept = report.tasks.filter((task: {reason: string | null}) => task.reason !== 'unfinished');
	t.ok(kept.length >= recorded, 'every recorded task keeps its result');
	t.ok(kept.every((task: {status: string}) => task.status === 'passed'), 'recorded tasks keep their passing verdicts');
	t.ok(report.tasks.slice(kept.length).every((task: {status: string; reason: string}) => task.status === 'failed' && task.reason === 'unfinished'));
	t.same(findMarked(attempt.process_marker).map(stat => stat.pid), [], 'no process of the attempt survives recovery');
	const again = await runInGroup({argv: [process.execPath, evalEntry(), 'eval', '--recover', artifacts], deadlineMs: 60_000});
	t.equal(again.record.exit_code, 2, 'a finished report is never rebuilt');
});
