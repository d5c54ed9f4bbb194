import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {isRunning, readStat} from '../../process/proc-table.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

/** The package's `"."` entry, found as a user's `import 'harness-lab'` finds it: through package.json's exports. */
async function packageEntry(): Promise<Record<string, unknown>> {
	const manifest = JSON.parse(await readFile(join(installRoot, 'package.json'), 'utf8')) as {exports: Record<string, string>};
	return import(pathToFileURL(join(installRoot, manifest.exports['.']!)).href) as Promise<Record<string, unknown>>;
}

const entry = await packageEntry();

t.test('the public face exports what docs/library.md promises, and no attempt plumbing', async t => {
	t.same(Object.keys(entry).sort(), ['Containment', 'KilledProcess', 'ProcessFailure', 'ProcessRecord', 'Sandbox', 'TreeResources', 'describeLeaks', 'graceMs', 'runInGroup']);
});

t.test('a command run in a group through the public face leaves nothing behind', async t => {
	const {runInGroup, ProcessRecord, describeLeaks} = entry as typeof import('../../process/public.js');
	const run = await runInGroup({argv: ['sh', '-c', 'sleep 300 & echo $!'], deadlineMs: 20_000, graceMs: 200, stdoutLimit: 4096, stderrLimit: 4096});
	const child = Number(run.stdout?.toString());
	t.equal(run.record.exit_code, 0, 'the command exited by itself');
	t.ok(ProcessRecord.safeParse(run.record).success, 'the record is a ProcessRecord');
	t.same(run.record.leaks, [child], 'the background child outlived it: a leak, ended');
	t.same(run.record.survivors, [], 'nothing survived the cleanup');
	t.notOk(isRunning(readStat(child)), 'the child is gone');
	t.match(describeLeaks(run.record), new RegExp(`ended 1 process\\(es\\) that outlived the command .*${child}`));
});

t.test('the deadline ends the whole group', async t => {
	const {runInGroup} = entry as typeof import('../../process/public.js');
	const {record} = await runInGroup({argv: ['sh', '-c', 'sleep 300 & sleep 300'], deadlineMs: 200, graceMs: 200});
	t.equal(record.failure, 'timeout');
	t.same(record.survivors, []);
});
