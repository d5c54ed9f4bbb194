import {existsSync} from 'node:fs';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {runInGroup, type Sandbox} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const root = await tempDir(t, 'hlab-mounts-');
const workspace = join(root, 'runtime', 'workspace');
const tests = join(root, 'task', 'tests');
const logs = join(root, 'evidence', 'verifier');
for (const dir of [workspace, tests, logs]) await mkdir(dir, {recursive: true});
await writeFile(join(tests, 'check.sh'), 'echo from-tests\n');
await writeFile(join(root, 'evidence', 'ledger.jsonl'), 'EVIDENCE\n');
t.notOk(existsSync('/app') || existsSync('/tests') || existsSync('/logs'), 'this machine has none of /app, /tests, /logs: the view must make them');

const view: Sandbox = {
	writable: [],
	readable: [],
	hidden: [join(root, 'evidence'), join(root, 'task')],
	network: false,
	mounts: [
		{source: workspace, target: '/app', writable: true},
		{source: tests, target: '/tests', writable: false},
		{source: logs, target: '/logs/verifier', writable: true},
	],
};

async function inView(t: Test, script: string): Promise<string> {
	const run = await runInGroup({argv: ['/bin/bash', '-c', script], cwd: workspace, deadlineMs: 20_000, sandbox: view});
	t.equal(run.record.failure, null, run.stderr?.toString() ?? '');
	return run.stdout?.toString() ?? '';
}

t.test('mounts show folders at new paths; the working folder is seen at its mount', async t => {
	const out = await inView(t, 'pwd; bash /tests/check.sh; echo made > /app/made.txt; echo 1 > /logs/verifier/reward.txt; ls /app');
	t.equal(out, '/app\nfrom-tests\nmade.txt\n');
	t.equal(await readFile(join(workspace, 'made.txt'), 'utf8'), 'made\n', 'a write at /app lands in the workspace');
	t.equal(await readFile(join(logs, 'reward.txt'), 'utf8'), '1\n', 'and one at /logs/verifier in its folder');
});

t.test('the rebuilt root stays read-only, a read-only mount too, and hidden paths stay hidden', async t => {
	const out = await inView(t, [
		'mkdir /newdir 2>/dev/null && echo root-writable || echo root-ro',
		'touch /logs/other 2>/dev/null && echo logs-writable || echo logs-ro',
		'(echo x > /tests/check.sh) 2>/dev/null && echo tests-writable || echo tests-ro',
		`cat ${join(root, 'evidence', 'ledger.jsonl')} 2>/dev/null || echo evidence-hidden`,
		`cat ${join(tests, 'check.sh')} 2>/dev/null || echo task-hidden`,
		'test -x /usr/bin/env && echo usr-there',
	].join('; '));
	t.equal(out, 'root-ro\nlogs-ro\ntests-ro\nevidence-hidden\ntask-hidden\nusr-there\n');
	t.equal(await readFile(join(tests, 'check.sh'), 'utf8'), 'echo from-tests\n', 'the read-only mount kept its file');
	t.notOk(existsSync('/newdir'));
});
