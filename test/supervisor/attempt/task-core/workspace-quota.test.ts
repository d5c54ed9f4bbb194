import {link, mkdir, mkdtemp, rm, symlink, truncate, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {allocatedBytes, nextWaitMs, watchWorkspace} from '../../../../supervisor/attempt/task-core/workspace-quota.js';
import {tempDir} from '../../../temp-dir.js';

t.test('allocated bytes count written blocks, not file sizes; a hard link once; a link is not followed', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'dense'), Buffer.alloc(256 * 1024, 1));
	await truncate(join(dir, 'dense'), 256 * 1024);
	await writeFile(join(dir, 'sparse'), '');
	await truncate(join(dir, 'sparse'), 1024 ** 3);
	await link(join(dir, 'dense'), join(dir, 'again'));
	await symlink('/usr', join(dir, 'usr'));
	const bytes = await allocatedBytes(dir);
	t.ok(bytes >= 256 * 1024 && bytes < 512 * 1024, `one copy of the written quarter-mebibyte (${bytes})`);
});

t.test('in memory, a small tree (walked synchronously) and a large one (through the thread pool) are measured alike', async t => {
	for (const files of [10, 200]) {
		const dir = await mkdtemp('/dev/shm/hlab-quota-');
		t.teardown(() => rm(dir, {recursive: true, force: true}));
		await mkdir(join(dir, 'deep'));
		for (let index = 0; index < files; index += 1) await writeFile(join(dir, index % 2 === 0 ? 'deep' : '', `f${index}`), Buffer.alloc(4096, 1));
		await link(join(dir, 'f1'), join(dir, 'again'));
		const total = await allocatedBytes(dir);
		t.ok(total >= files * 4096, `${files} files: ${total} bytes, the link once`);
		const quota = (limit: number) => watchWorkspace(dir, limit, new AbortController().signal, 60_000).finish();
		t.equal(await quota(total), null, `${files} files: at the limit is within it`);
		t.equal((await quota(total - 1))?.reason, 'workspace_limit', `${files} files: a byte under is over`);
	}
});

t.test('the quota aborts its signal once the workspace grows past the limit, and says so at the end', async t => {
	const dir = await tempDir(t);
	const quota = watchWorkspace(dir, 64 * 1024, new AbortController().signal, 10);
	await new Promise(resolve => setTimeout(resolve, 50));
	t.notOk(quota.signal.aborted, 'under the limit, nothing happens');
	await writeFile(join(dir, 'big'), Buffer.alloc(1024 * 1024, 1));
	// The poll may have seen the file while it was written.
	if (!quota.signal.aborted) await new Promise<void>(resolve => quota.signal.addEventListener('abort', () => resolve(), {once: true}));
	const failure = await quota.finish();
	t.equal(failure?.reason, 'workspace_limit');
	t.same(await quota.finish(), failure, 'the same answer again');
});

t.test('a write the poll did not see is caught by the measurement at the end; the attempt\'s signal still passes through', async t => {
	const dir = await tempDir(t);
	const attempt = new AbortController();
	const quota = watchWorkspace(dir, 64 * 1024, attempt.signal, 60_000);
	await writeFile(join(dir, 'big'), Buffer.alloc(1024 * 1024, 1));
	attempt.abort();
	t.ok(quota.signal.aborted, 'the attempt\'s abort reaches the execution');
	t.equal((await quota.finish())?.reason, 'workspace_limit');
	const under = watchWorkspace(await tempDir(t), 64 * 1024, new AbortController().signal, 60_000);
	t.equal(await under.finish(), null, 'an empty workspace is within its limit');
});

t.test('a workspace that takes long to walk is walked less often: measuring costs at most a twentieth of the time', async t => {
	t.equal(nextWaitMs(100, 0.4), 100, 'a small workspace: every interval');
	t.equal(nextWaitMs(100, 5), 100);
	t.equal(nextWaitMs(100, 30), 600, 'a 30 ms walk waits 600 ms');
});

t.test('many workspaces watched at once share the twentieth: each is walked less often as more run', async t => {
	t.equal(nextWaitMs(100, 0.2, 8), 100, 'eight small workspaces: each every interval');
	t.equal(nextWaitMs(100, 0.2, 256), 1024, 'at 256 in flight a 0.2 ms walk waits about a second');
	t.equal(nextWaitMs(100, 30, 2), 1200, 'a long walk and a second workspace: twice the wait');
});

t.test('a workspace among many watched at once is still measured at its end: the limit holds, later', async t => {
	const idle = await Promise.all(Array.from({length: 300}, () => tempDir(t)));
	const others = idle.map(dir => watchWorkspace(dir, 64 * 1024, new AbortController().signal, 10));
	const dir = await tempDir(t);
	const quota = watchWorkspace(dir, 64 * 1024, new AbortController().signal, 10);
	await writeFile(join(dir, 'big'), Buffer.alloc(256 * 1024, 1));
	t.match(await quota.finish(), {reason: 'workspace_limit'}, 'the end\'s measure finds it over');
	await Promise.all(others.map(other => other.finish()));
});
