import {randomUUID} from 'node:crypto';
import {setTimeout as sleep} from 'node:timers/promises';
import type {Test} from 'tap';
import {findMarked} from '../process/find-members.js';
import {readTable} from '../process/proc-table.js';

/**
 * Marks every process this test file starts (they inherit the environment) and,
 * when the file ends, fails the file if any of them is still running, then kills them so one leak stays one failure.
 */
export function checkNoLeaks(t: Test): void {
	const key = `HLAB_TEST_FILE_${randomUUID().replaceAll('-', '')}`;
	process.env[key] = '1';
	t.teardown(async () => {
		const entry = `${key}=1`;
		let left = findMarked(entry, readTable());
		// A process killed a moment ago may still be on its way out.
		for (let wait = 0; left.length > 0 && wait < 20; wait += 1) {
			await sleep(50);
			left = findMarked(entry, readTable());
		}
		if (left.length === 0) return;
		for (const stat of left) process.kill(stat.pid, 'SIGKILL');
		// Assertions are closed by now: a leak fails the file through its exit status.
		process.stderr.write(`LEAK: processes started by this test file survived: ${left.map(stat => `${stat.pid} (${stat.comm})`).join(', ')}\n`);
		process.on('exit', () => (process.exitCode = 1));
	});
}
