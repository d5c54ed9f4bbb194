import {existsSync} from 'node:fs';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {digestBytes} from '../../../../files/digest.js';
import {dropRuntimeState, exportTaskEvidence, taskPaths, type TaskPaths} from '../../../../supervisor/attempt/task-core/export-evidence.js';
import {failedResult} from '../../../../supervisor/attempt/task-core/failed-result.js';
import {prepareTaskFolders} from '../../../../supervisor/attempt/task-core/task-folders.js';
import {chooseRuntimeRoot, dropRuntimeRoot} from '../../../../supervisor/evidence/runtime-root.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {tempDir} from '../../../temp-dir.js';

// A kept workspace leaves the tmpfs through cp.
checkNoLeaks(t);

/** A task prepared as an attempt prepares one, its runtime state on the shared-memory tmpfs, after a run that left a journal and a file. */
async function ranTask(t: Test): Promise<{evidence: string; paths: TaskPaths}> {
	const evidence = await tempDir(t);
	const root = chooseRuntimeRoot(`test-${process.pid}-${Math.random().toString(36).slice(2)}`, {XDG_RUNTIME_DIR: join(evidence, 'none')});
	t.teardown(() => dropRuntimeRoot(root));
	t.equal(root.tmpfs, true);
	const paths = taskPaths(evidence, 'tasks/001-x', root.dir);
	await prepareTaskFolders(paths, {model: 'm'});
	await writeFile(join(paths.state, 'journal.jsonl'), '{"step":1}\n');
	await mkdir(join(paths.workspace, 'src'));
	await writeFile(join(paths.workspace, 'src', 'made.txt'), 'made');
	return {evidence, paths};
}

t.test('the evidence leaves the tmpfs for the task folder, and the runtime state goes once dropped', async t => {
	const {evidence, paths} = await ranTask(t);
	const {result: exported, written} = await exportTaskEvidence(paths, failedResult(0, 'x', {reason: 'timeout', message: 'late'}), true, 'attempt-1');
	t.same(exported.evidence, {journal: 'tasks/001-x/journal.jsonl', workspace: 'tasks/001-x/workspace', result: 'tasks/001-x/result.json'});
	// The seal takes these as written: each must be the digest of the file's bytes on disk.
	t.same([...written.keys()].sort(), ['tasks/001-x/journal.jsonl', 'tasks/001-x/result.json']);
	for (const [rel, digest] of written) t.equal(digestBytes(await readFile(join(evidence, rel))), digest, `${rel} holds the bytes its digest names`);
	t.equal(await readFile(join(evidence, 'tasks', '001-x', 'journal.jsonl'), 'utf8'), '{"step":1}\n');
	t.equal(await readFile(join(evidence, 'tasks', '001-x', 'workspace', 'src', 'made.txt'), 'utf8'), 'made', 'the kept workspace crossed file systems');
	t.same(JSON.parse(await readFile(join(evidence, 'tasks', '001-x', 'result.json'), 'utf8')), exported, 'result.json holds the exported result');
	t.ok(existsSync(join(paths.state, 'journal.jsonl')), 'the runtime state stays until the result is recorded');
	dropRuntimeState(paths);
	t.notOk(existsSync(paths.runtime), 'nothing of the task is left on the tmpfs');
	t.notOk(existsSync(join(evidence, 'tasks', '001-x', 'runtime-state')));
});

t.test('a failed export moves the runtime state into the task folder for investigation', async t => {
	const {evidence, paths} = await ranTask(t);
	// A folder where result.json must go: the durable write cannot replace it.
	await mkdir(join(paths.dir, 'result.json'));
	await t.rejects(exportTaskEvidence(paths, failedResult(0, 'x', {reason: 'timeout', message: 'late'}), false, 'attempt-1'));
	const kept = join(evidence, 'tasks', '001-x', 'runtime-state');
	t.equal(await readFile(join(kept, 'workspace', 'src', 'made.txt'), 'utf8'), 'made');
	t.ok(existsSync(join(kept, 'session', 'configuration.json')));
	t.notOk(existsSync(paths.runtime), 'nothing of the task is left on the tmpfs');
});
