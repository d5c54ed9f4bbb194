import {existsSync, readFileSync, watch} from 'node:fs';
import {join} from 'node:path';
import t from 'tap';
import {runInGroup} from '../../process/index.js';
import {recoverAttempt} from '../../supervisor/attempt/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {hlab} from '../hlab.js';
import {freeze, scratch} from './experiment-fixture.js';
import {evalEntry} from './install-copy.js';

checkNoLeaks(t);

/** Resolves the moment `path` exists: file events of its folder, and a 2 ms look besides. */
function appears(folder: string, path: string): Promise<void> {
	return new Promise(resolve => {
		const watcher = watch(folder, () => look());
		const timer = setInterval(() => look(), 2);
		const look = (): void => {
			if (!existsSync(path)) return;
			watcher.close();
			clearInterval(timer);
			resolve();
		};
		look();
	});
}

t.test('--recover on a live attempt is refused, naming its supervisor, from the first instant; the attempt then finishes', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt,sales_report'});
	const artifacts = join(dir, 'attempt');
	let pid = 0;
	const running = runInGroup({
		argv: [process.execPath, evalEntry(), 'eval', '--plan', plan, '--artifacts', artifacts, '--json'],
		deadlineMs: 120_000, onSpawn: spawned => { pid = spawned; },
	});
	await appears(dir, artifacts);
	// The instant the directory appears (before attempt.json names the supervisor), recovery must already see it is live.
	t.notOk(existsSync(join(artifacts, 'attempt.json')), 'asked before attempt.json exists');
	await t.rejects(recoverAttempt(artifacts), {reason: 'still_running', message: new RegExp(`supervisor \\(pid ${pid}\\) is still running`)});
	t.notOk(existsSync(join(artifacts, 'report.json')), 'no report was written for it');

	await appears(artifacts, join(artifacts, 'attempt.json'));
	const refused = await hlab(['eval', '--recover', artifacts]);
	t.equal(refused.record.exit_code, 2, 'bad input: the attempt is not over');
	if (!existsSync(join(artifacts, 'report.json'))) {
		t.match(refused.stderr, new RegExp(`^hlab: the attempt's supervisor \\(pid ${pid}\\) is still running; stop it before recovering\\n$`), 'one line naming the live supervisor');
	}

	const run = await running;
	t.equal(run.record.exit_code, 0, run.stderr?.toString() ?? '');
	const report = JSON.parse(readFileSync(join(artifacts, 'report.json'), 'utf8'));
	t.equal(report.completion, 'finished', 'the attempt finished as if nobody had asked');
	t.equal(report.passed, true);
	t.notOk(existsSync(join(artifacts, 'lock.json')), 'closed, the attempt released its lock');
	const root = JSON.parse(readFileSync(join(artifacts, 'runtime-root.json'), 'utf8'));
	t.ok(root.dir === null || !existsSync(root.dir), 'and removed its runtime root itself');
});
