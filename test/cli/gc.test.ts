import {randomUUID} from 'node:crypto';
import {existsSync} from 'node:fs';
import {copyFile, link, mkdir, readdir, symlink, utimes, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {runInGroup} from '../../process/index.js';
import {ownIdentity} from '../../process/process-identity.js';
import {readBootId} from '../../process/proc-table.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);
// Each test has folders of its own (TMPDIR, runtime, cache, evidence), and two wait seconds on a slow candidate: side by side.
t.jobs = 3;

const hourAgo = new Date(Date.now() - 2 * 3_600_000);

/** A folder with one file, both last changed two hours ago (ctime cannot be set back, so gc runs with --older-than 0 where age is not under test). */
async function oldFolder(path: string, bytes = 4096): Promise<string> {
	await mkdir(path, {recursive: true});
	await writeFile(join(path, 'state'), Buffer.alloc(bytes, 1));
	await utimes(join(path, 'state'), hourAgo, hourAgo);
	await utimes(path, hourAgo, hourAgo);
	return path;
}

const lock = (startTime: number): string => JSON.stringify({schema: 'harness-lab/attempt-lock@1', attempt_id: 'x', process_marker: 'HLAB_X=1', pid: process.pid, start_time: startTime, boot_id: readBootId()});

/** An attempt's evidence naming its runtime folder, held by this test process (live) or by a supervisor that is gone. */
async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const found = await probe();
		if (found !== undefined) return found;
		if (Date.now() > until) throw new Error('timed out');
		await new Promise(resolve => setTimeout(resolve, 50));
	}
}

async function attemptNaming(evidence: string, runtimeDir: string, live: boolean): Promise<string> {
	const dir = join(evidence, live ? 'live' : 'crashed');
	await mkdir(dir, {recursive: true});
	await writeFile(join(dir, 'plan.json'), '{}');
	await writeFile(join(dir, 'ledger.jsonl'), '');
	await writeFile(join(dir, 'runtime-root.json'), JSON.stringify({schema: 'harness-lab/runtime-root@1', dir: runtimeDir, source: 'XDG_RUNTIME_DIR', tmpfs: null, skipped: []}));
	await writeFile(join(dir, 'lock.json'), lock(ownIdentity()!.startTime + (live ? 0 : 1)));
	return dir;
}

/** A candidate whose first step waits `ms`: its attempt stays in flight that long. */
const slowCandidate = (ms: number): string => [
	'export default {',
	"\tinitialize() { return {protocol_version: 1, id: 'slow', capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}]}; },",
	`\tasync invokeCapability() { await new Promise(resolve => setTimeout(resolve, ${ms})); return {output: {stop: false}}; },`,
	'};',
].join('\n');

let frozen: Promise<{plan: string; code: number | null; stderr: string}> | null = null;

/** The plan of the real attempts (answer_from_prompt, frozen as a user does): frozen once for the file, copied into `dir`; `test` asserts the freeze. */
async function planIn(test: Test, dir: string): Promise<void> {
	frozen ??= (async () => {
		const base = await tempDir(t, 'hlab-gc-plan-');
		const env = {TMPDIR: base, XDG_RUNTIME_DIR: base, XDG_CACHE_HOME: join(base, 'cache'), HLAB_AGENT_STORE: join(base, 'store')};
		const freeze = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], {cwd: base, env});
		return {plan: join(base, 'plan.json'), code: freeze.record.exit_code, stderr: freeze.stderr};
	})();
	const {plan, code, stderr} = await frozen;
	test.equal(code, 0, `the plan is frozen: ${stderr}`);
	await copyFile(plan, join(dir, 'plan.json'));
}

t.test('gc removes what nobody uses and keeps a live attempt\'s runtime root, a held folder, evidence and what is in use', async t => {
	const base = await tempDir(t, 'hlab-gc-');
	const [tmp, runtime, shm, cache, evidence] = ['tmp', 'run', 'shm', 'cache', 'experiments'].map(name => join(base, name));
	for (const dir of [tmp, runtime, shm, cache, evidence]) await mkdir(dir!, {recursive: true});
	const env = {TMPDIR: tmp!, XDG_RUNTIME_DIR: runtime!, XDG_CACHE_HOME: cache!, HOME: base, HLAB_AGENT_STORE: join(cache!, 'store')};
	const staleInstall = await oldFolder(join(cache!, 'store', '.installing-Zz9Yy8'));
	const install = await oldFolder(join(cache!, 'store', 'some-agent@1.0.0'));

	const staleTemp = await oldFolder(join(tmp!, 'hlab-agent-Ab12Cd'));
	const heldTemp = await oldFolder(join(tmp!, 'hlab-runner-Xy34Zw'));
	const notOurs = await oldFolder(join(tmp!, 'someone-else'));
	const liveRoot = await oldFolder(join(runtime!, `hlab-${randomUUID()}`));
	const deadRoot = join(runtime!, `hlab-${randomUUID()}`);
	await mkdir(deadRoot);
	await writeFile(join(deadRoot, 'fresh'), 'a crashed attempt\'s state, changed just now');
	const orphanRoot = await oldFolder(join(shm!, `hlab-${randomUUID()}`));
	const liveEvidence = await attemptNaming(evidence!, liveRoot, true);
	const deadEvidence = await attemptNaming(evidence!, deadRoot, false);
	const harness = join(cache!, 'harness-lab');
	await mkdir(join(harness, 'pinned'), {recursive: true});
	await writeFile(join(harness, 'file-digests.json'), '{"schema":"harness-lab/file-digests@1","entries":{}}');
	await mkdir(join(harness, 'module-graphs'));
	await writeFile(join(harness, 'module-graphs', 'a-graph.json'), '{"schema":"harness-lab/module-graph@1","key":"k","files":{}}');
	await writeFile(join(harness, 'tool-versions.json'), '{"schema":"harness-lab/tool-versions@1","entries":{}}');
	await writeFile(join(harness, 'pinned', 'linked'), Buffer.alloc(8192));
	await link(join(harness, 'pinned', 'linked'), join(liveEvidence, 'pinned-node'));
	await writeFile(join(harness, 'pinned', 'unlinked'), Buffer.alloc(8192));

	// A live process holds the runner folder: its working directory is inside it.
	const stop = new AbortController();
	await mkdir(join(heldTemp, 'work'));
	const holder = runInGroup({argv: ['sleep', '60'], cwd: join(heldTemp, 'work'), deadlineMs: 60_000, signal: stop.signal});
	t.teardown(async () => {
		stop.abort();
		await holder;
	});
	await new Promise(resolve => setTimeout(resolve, 300));

	const dry = await hlab(['gc', '--dry-run', '--older-than', '0', '--shm', shm!], {cwd: base, env});
	t.equal(dry.record.exit_code, 0, dry.stderr);
	t.match(dry.stdout, new RegExp(`^would remove\\s+\\S+ KiB  ${staleTemp}  \\(temporary folder\\)$`, 'm'), 'with its size');
	t.match(dry.stdout, /^would remove \d+ of \d+ leftovers, /m);
	for (const path of [staleTemp, deadRoot, orphanRoot, join(harness, 'file-digests.json'), join(harness, 'module-graphs'), join(harness, 'tool-versions.json')]) t.ok(existsSync(path), `dry run: ${path} stays`);

	const run = await hlab(['gc', '--older-than', '0', '--shm', shm!], {cwd: base, env});
	t.equal(run.record.exit_code, 0, run.stderr);
	for (const path of [staleTemp, deadRoot, orphanRoot, join(harness, 'file-digests.json'), join(harness, 'module-graphs'), join(harness, 'tool-versions.json'), join(harness, 'pinned', 'unlinked'), staleInstall]) t.notOk(existsSync(path), `removed: ${path}`);
	t.ok(existsSync(join(liveRoot, 'state')), 'the live attempt\'s runtime root stays');
	t.match(run.stdout, new RegExp(`^kept .*${liveRoot}  \\(its attempt's supervisor runs \\(${liveEvidence}\\)\\)$`, 'm'));
	t.ok(existsSync(join(heldTemp, 'state')), 'a folder a live process is in stays');
	t.match(run.stdout, new RegExp(`^kept .*${heldTemp}  \\(a live process holds it\\)$`, 'm'));
	t.ok(existsSync(install), 'an agent install stays without --agents');
	t.ok(existsSync(notOurs), 'a folder that is not hlab\'s stays');
	t.ok(existsSync(join(harness, 'pinned', 'linked')), 'a pinned copy evidence links to stays');
	t.same((await readdir(deadEvidence)).sort(), ['ledger.jsonl', 'lock.json', 'plan.json', 'runtime-root.json'], 'evidence is never touched');
	t.ok(existsSync(join(liveEvidence, 'pinned-node')));

	// --agents: installs no example spec pins go; the examples' own pins stay.
	const pinnedInstall = await oldFolder(join(cache!, 'store', '@mariozechner+pi-coding-agent@0.73.1'));
	const agents = await hlab(['gc', '--agents', '--older-than', '0', '--shm', shm!], {cwd: base, env});
	t.equal(agents.record.exit_code, 0, agents.stderr);
	t.notOk(existsSync(install), 'an unpinned install goes with --agents');
	t.ok(existsSync(pinnedInstall), 'examples/agents/pi.json pins this one');
});

t.test('a real attempt in flight: gc run from elsewhere, with no --evidence and --older-than 0, leaves its runtime root alone', async t => {
	const base = await tempDir(t, 'hlab-gc-live-');
	const runtime = join(base, 'run');
	await mkdir(runtime);
	const env = {TMPDIR: join(base, 'tmp'), XDG_RUNTIME_DIR: runtime, XDG_CACHE_HOME: join(base, 'cache'), HLAB_AGENT_STORE: join(base, 'store')};
	await mkdir(env.TMPDIR);
	// A candidate whose first step waits: the attempt stays in flight, its runtime root in place, while gc runs.
	// Nothing holds the root then (no open file, no cwd): only the live supervisor's --artifacts and its lock.json say whose it is.
	await writeFile(join(base, 'slow.ts'), slowCandidate(8000));
	await planIn(t, base);
	await mkdir(join(base, 'elsewhere'));
	const attempt = hlab(['eval', '--plan', 'plan.json', '--artifacts', 'elsewhere/slow', '--candidate', 'slow.ts'], {cwd: base, env, timeoutMs: 120_000});
	const root = await waitFor(async () => (await readdir(runtime)).find(name => name.startsWith('hlab-')), 60_000);
	await utimes(join(runtime, root), hourAgo, hourAgo);
	const gcDir = join(base, 'gc-cwd');
	await mkdir(gcDir);
	const run = await hlab(['gc', '--older-than', '0', '--shm', join(base, 'no-shm')], {cwd: gcDir, env});
	t.equal(run.record.exit_code, 0, run.stderr);
	t.ok(existsSync(join(runtime, root)), 'the live attempt\'s runtime root stays');
	t.match(run.stdout, new RegExp(`^kept .*${root}  \\(its attempt's supervisor runs \\(${join(base, 'elsewhere', 'slow')}\\)\\)$`, 'm'));
	const finished = await attempt;
	t.equal(finished.record.exit_code, 0, `the attempt still passes: ${finished.stderr}`);
});

t.test('a recent temporary folder stays under the default age', async t => {
	const base = await tempDir(t, 'hlab-gc-age-');
	const tmp = join(base, 'tmp');
	const recent = join(tmp, 'hlab-agent-Qw12Er');
	await mkdir(recent, {recursive: true});
	const run = await hlab(['gc', '--shm', join(base, 'none')], {cwd: base, env: {TMPDIR: tmp, XDG_CACHE_HOME: join(base, 'cache'), XDG_RUNTIME_DIR: join(base, 'none'), HLAB_AGENT_STORE: join(base, 'store')}});
	t.equal(run.record.exit_code, 0, run.stderr);
	t.ok(existsSync(recent));
	t.match(run.stdout, /^kept .*hlab-agent-Qw12Er  \(changed \d+ s ago\)$/m);
});

t.test('bad input: one line, exit 2', async t => {
	for (const args of [['--older-than', 'soon'], ['--evidence', '/nonexistent/hlab-gc']]) {
		const run = await hlab(['gc', '--dry-run', ...args]);
		t.equal(run.record.exit_code, 2, args.join(' '));
		t.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
	}
});

t.test('gc DIR... removes the named attempts\' evidence only, after checking each; a refusal removes none', async t => {
	const base = await tempDir(t, 'hlab-gc-named-');
	const experiments = join(base, 'experiments');
	await mkdir(experiments);
	const env = {TMPDIR: base, XDG_RUNTIME_DIR: join(base, 'run'), XDG_CACHE_HOME: join(base, 'cache'), HLAB_AGENT_STORE: join(base, 'store')};
	await mkdir(env.XDG_RUNTIME_DIR);
	const gc = (args: string[]) => hlab(['gc', ...args], {cwd: base, env});
	await planIn(t, base);
	await Promise.all(['a', 'b'].map(async side => {
		const ran = await hlab(['eval', '--plan', 'plan.json', '--out', `experiments/${side}`], {cwd: base, env});
		t.equal(ran.record.exit_code, 0, ran.stderr);
	}));
	const [a, b] = [join(experiments, 'a'), join(experiments, 'b')];
	// Synthetic attempts: one whose lock names this live test process, one whose supervisor is gone (a crash).
	const live = await attemptNaming(join(base, 'synthetic'), join(base, 'run', 'x'), true);
	const crashed = await attemptNaming(join(base, 'synthetic'), join(base, 'run', 'y'), false);
	await symlink(b, join(base, 'link-to-b'));
	await writeFile(join(base, 'notes.txt'), 'mine\n');
	await mkdir(join(base, 'mine'));
	await writeFile(join(base, 'mine', 'plan.json'), '{}');

	const refusals: Array<[string, string[], RegExp]> = [
		['a folder of attempts, not an attempt', ['experiments'], /is not an attempt's evidence directory/],
		['a folder with a plan.json alone', ['mine'], /mine is not an attempt's evidence directory/],
		['a link to an attempt', ['link-to-b'], /link-to-b is a symbolic link/],
		['a file', ['notes.txt'], /notes\.txt is not a folder/],
		['a missing folder', ['experiments/c'], /experiments\/c: no such folder/],
		['an attempt whose supervisor runs (its lock)', [live], /is a live attempt: its supervisor runs \(pid \d+\)/],
		['a good one beside a live one: none goes', ['experiments/a', live], /is a live attempt/],
		['the sweep\'s flags with DIRs', ['experiments/a', '--agents'], /--agents is an option of the leftover sweep/],
	];
	for (const [what, args, message] of refusals) {
		const run = await gc(args);
		t.equal(run.record.exit_code, 2, `${what}: exit 2`);
		t.match(run.stderr, new RegExp(`^hlab: .*${message.source}.*\\n$`), `${what}: one line`);
		t.equal(run.stderr.split('\n').length, 2, `${what}: one line only`);
	}
	t.ok([a, b, live, crashed, join(base, 'mine', 'plan.json'), join(base, 'notes.txt')].every(path => existsSync(path)), 'every refusal removed nothing');
	t.ok(existsSync(join(b, 'report.json')), 'the link\'s target is whole');

	// A process working inside an attempt's folder holds it.
	const holder = new AbortController();
	const held = runInGroup({argv: ['sleep', '60'], cwd: join(a, 'tasks'), deadlineMs: 60_000, signal: holder.signal});
	await waitFor(async () => (await gc(['--dry-run', 'experiments/a'])).record.exit_code === 2 ? true : undefined, 10_000);
	const inUse = await gc(['experiments/a']);
	t.equal(inUse.record.exit_code, 2);
	t.match(inUse.stderr, /experiments\/a is in use: a live process holds a file or its working directory there; nothing removed/);
	holder.abort();
	await held;

	// A live process told to write into the folder the attempt sits in (a calibration's DIR, a search's --out).
	const writer = new AbortController();
	const writing = runInGroup({argv: ['bash', '-c', 'sleep 60; true', '--out', 'experiments'], cwd: base, deadlineMs: 60_000, signal: writer.signal});
	await waitFor(async () => (await gc(['--dry-run', 'experiments/a'])).record.exit_code === 2 ? true : undefined, 10_000);
	const written = await gc(['experiments/a']);
	t.equal(written.record.exit_code, 2);
	t.match(written.stderr, /experiments\/a is where a live hlab process writes; nothing removed/);
	writer.abort();
	await writing;

	const dry = await gc(['--dry-run', 'experiments/a', crashed]);
	t.equal(dry.record.exit_code, 0, dry.stderr);
	t.match(dry.stdout, /^would remove .*experiments\/a  \(attempt evidence, named\)$/m);
	t.ok(existsSync(a) && existsSync(crashed), 'a dry run removes nothing');

	const removed = await gc(['experiments/a', crashed]);
	t.equal(removed.record.exit_code, 0, removed.stderr);
	t.match(removed.stdout, /^removed .*experiments\/a  \(attempt evidence, named\)$/m);
	t.match(removed.stdout, /^removed 2 of 2 leftovers/m);
	t.notOk(existsSync(a), 'the named attempt is gone');
	t.notOk(existsSync(crashed), 'so is a crashed one: its supervisor is gone');
	t.ok(existsSync(join(b, 'report.json')) && existsSync(live), 'the unnamed evidence stays');
	t.strictSame((await readdir(experiments)).sort(), ['b'], 'nothing left behind beside it');
});

t.test('gc DIR refuses a real attempt in flight, and removes it once it finished', async t => {
	const base = await tempDir(t, 'hlab-gc-named-live-');
	const env = {TMPDIR: base, XDG_RUNTIME_DIR: join(base, 'run'), XDG_CACHE_HOME: join(base, 'cache'), HLAB_AGENT_STORE: join(base, 'store')};
	await mkdir(env.XDG_RUNTIME_DIR);
	await writeFile(join(base, 'slow.ts'), slowCandidate(6000));
	await planIn(t, base);
	const attempt = hlab(['eval', '--plan', 'plan.json', '--out', 'slow', '--candidate', 'slow.ts'], {cwd: base, env, timeoutMs: 120_000});
	await waitFor(async () => existsSync(join(base, 'slow', 'lock.json')) ? true : undefined, 60_000);
	const refused = await hlab(['gc', 'slow'], {cwd: base, env});
	t.equal(refused.record.exit_code, 2);
	t.match(refused.stderr, /^hlab: .*slow is (a live attempt: its supervisor runs|where a live hlab process writes)/);
	const finished = await attempt;
	t.equal(finished.record.exit_code, 0, `the attempt was left to finish: ${finished.stderr}`);
	const removed = await hlab(['gc', 'slow'], {cwd: base, env});
	t.equal(removed.record.exit_code, 0, removed.stderr);
	t.notOk(existsSync(join(base, 'slow')));
});
