import {once} from 'node:events';
import {existsSync} from 'node:fs';
import {mkdir, writeFile} from 'node:fs/promises';
import {createServer, type AddressInfo} from 'node:net';
import {join} from 'node:path';
import t from 'tap';
import {checkSandbox, runInGroup, type Sandbox} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const usable = checkSandbox();

interface Layout {
	workspace: string;
	evidence: string;
	plan: string;
	grader: string;
	outside: string;
	sandbox: Sandbox;
}

/** A task's workspace inside its evidence directory, as an attempt lays it out, with a plan and a grader beside it. */
async function layout(t: Parameters<typeof tempDir>[0]): Promise<Layout> {
	const root = await tempDir(t, 'hlab-sandbox-');
	const evidence = join(root, 'evidence');
	const workspace = join(evidence, 'tasks', '001-x', 'runtime-state', 'workspace');
	const grader = join(root, 'suite', 'grader.js');
	const plan = join(root, 'plan.json');
	await mkdir(workspace, {recursive: true});
	await mkdir(join(root, 'suite'));
	await writeFile(join(evidence, 'ledger.jsonl'), 'EVIDENCE-CONTENT\n');
	await writeFile(grader, 'GRADER-EXPECTED\n');
	await writeFile(plan, 'PLAN-CONTENT\n');
	return {workspace, evidence, plan, grader, outside: join(root, 'outside.txt'), sandbox: {writable: [workspace], readable: [], hidden: [evidence, plan, join(root, 'suite')], network: false}};
}

async function sh(place: Layout, script: string, sandboxed: boolean): Promise<{code: number | null; out: string}> {
	const run = await runInGroup({argv: ['/bin/sh', '-c', script], cwd: place.workspace, deadlineMs: 20_000, ...(sandboxed ? {sandbox: place.sandbox} : {})});
	return {code: run.record.exit_code, out: `${run.stdout?.toString() ?? ''}${run.stderr?.toString() ?? ''}`};
}

t.test('a sandboxed command sees neither the grader, the evidence nor the plan; unsandboxed it does', {skip: usable.ok ? false : usable.reason}, async t => {
	const place = await layout(t);
	for (const [what, file] of [['grader', place.grader], ['evidence', join(place.evidence, 'ledger.jsonl')], ['plan', place.plan]] as const) {
		const open = await sh(place, `cat ${file}`, false);
		t.equal(open.code, 0, `unsandboxed, the ${what} is readable`);
		const closed = await sh(place, `cat ${file}`, true);
		t.not(closed.code, 0, `sandboxed, the ${what} cannot be read: ${closed.out.trim()}`);
		t.notMatch(closed.out, /GRADER-EXPECTED|EVIDENCE-CONTENT|PLAN-CONTENT/);
	}
});

t.test('a sandboxed command writes its workspace and nothing outside it', {skip: usable.ok ? false : usable.reason}, async t => {
	const place = await layout(t);
	const inside = await sh(place, 'echo made > made.txt', true);
	t.equal(inside.code, 0);
	t.ok(existsSync(join(place.workspace, 'made.txt')), 'the workspace is writable');
	for (const target of [place.outside, join(place.evidence, 'forged.json'), join(place.workspace, '..', 'beside.txt')]) {
		await sh(place, `echo forged > ${target}`, true);
		t.notOk(existsSync(target), `sandboxed, nothing appears at ${target}`);
	}
	await sh(place, `echo forged > ${place.outside}`, false);
	t.ok(existsSync(place.outside), 'unsandboxed, the same write lands');
});

t.test('a sandboxed command cannot reach a loopback server; unsandboxed it can', {skip: usable.ok ? false : usable.reason}, async t => {
	const place = await layout(t);
	const server = createServer(socket => socket.end('hello from the host\n'));
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	t.teardown(() => server.close());
	const {port} = server.address() as AddressInfo;
	// Without the test runner's NODE_OPTIONS, whose exit hook writes outside the workspace.
	const connect = `env -u NODE_OPTIONS ${process.execPath} -e "require('net').connect(${port}, '127.0.0.1').on('data', d => process.stdout.write(d)).on('error', e => { console.log(e.code); process.exit(3); })"`;
	const open = await sh(place, connect, false);
	t.match(open.out, /hello from the host/, 'unsandboxed, the server answers');
	const closed = await sh(place, connect, true);
	t.equal(closed.code, 3, `sandboxed, the connection fails: ${closed.out.trim()}`);
	t.notMatch(closed.out, /hello from the host/);
});

t.test('the record names the sandbox, and argv stays the command', {skip: usable.ok ? false : usable.reason}, async t => {
	const place = await layout(t);
	const run = await runInGroup({argv: ['true'], cwd: place.workspace, sandbox: place.sandbox});
	t.equal(run.record.exit_code, 0);
	t.same(run.record.sandbox, place.sandbox);
	t.same(run.record.argv, ['true']);
});

t.test('a readable folder inside a hidden one stays readable, and its siblings stay hidden', {skip: usable.ok ? false : usable.reason}, async t => {
	const place = await layout(t);
	const home = join(place.evidence, '..', 'home');
	const pkg = join(home, '.cache', 'agents', 'pkg@1.0.0');
	await mkdir(pkg, {recursive: true});
	await writeFile(join(pkg, 'agent.js'), 'AGENT-CODE\n');
	await writeFile(join(home, 'credentials'), 'USER-SECRET\n');
	const sandbox = {...place.sandbox, hidden: [...place.sandbox.hidden, home], readable: [pkg]};
	const run = await runInGroup({argv: ['/bin/sh', '-c', `cat ${join(pkg, 'agent.js')}; cat ${join(home, 'credentials')}`], cwd: place.workspace, deadlineMs: 20_000, sandbox});
	const out = `${run.stdout?.toString() ?? ''}${run.stderr?.toString() ?? ''}`;
	t.match(out, /AGENT-CODE/, 'the package inside home is readable');
	t.notMatch(out, /USER-SECRET/, 'the rest of home is not');
});
