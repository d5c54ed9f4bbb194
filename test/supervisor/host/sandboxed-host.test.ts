import {once} from 'node:events';
import {existsSync} from 'node:fs';
import {mkdir, writeFile} from 'node:fs/promises';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import t from 'tap';
import {checkSandbox, type Sandbox} from '../../../process/index.js';
import {closeHostSession, openHostSession, runHostTask} from '../../../supervisor/host/index.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {writeSyntheticHost} from './synthetic-host.js';

checkNoLeaks(t);

const usable = checkSandbox();
const planDigest = `sha256:${'a'.repeat(64)}`;
const provider = {base_url: 'http://127.0.0.1:9/v1', model: 'm', api_key_env: null, reasoning_effort: null};

/** A host that tries to read a grader-like secret and to write beside its workspace, and says what happened. */
const prying = `
	let secret;
	try { secret = readFileSync(process.env.SECRET_FILE, 'utf8').trim(); } catch (error) { secret = error.code; }
	let wrote;
	try { writeFileSync(process.env.OUTSIDE_FILE, 'forged'); wrote = 'yes'; } catch (error) { wrote = error.code; }
	const reach = async url => {
		try { return 'HTTP ' + (await fetch(url, {signal: AbortSignal.timeout(3000)})).status; } catch (error) { return 'ERR ' + (error.cause?.code ?? error.name); }
	};
	const proxy = await reach(request.provider.base_url + '/models');
	const other = await reach(process.env.OTHER_URL);
	writeFileSync(join(request.workspace, 'answer.txt'), 'ok');
	const report = JSON.stringify({secret, wrote, proxy, other, sandbox: process.env.HLAB_SANDBOX ?? null});
	return {version: 1, binary: self, task_id: request.task.id, outcome: {...done, final_text: report}};
`;

async function runPrying(t: Parameters<typeof tempDir>[0], sandboxed: boolean): Promise<{seen: {secret: string; wrote: string; proxy: string; other: string; sandbox: string | null}; outside: string; workspace: string}> {
	const root = await tempDir(t, 'hlab-host-sandbox-');
	const secrets = join(root, 'suite');
	await mkdir(secrets);
	await writeFile(join(secrets, 'expected.txt'), 'GRADER-EXPECTED\n');
	const exe = await writeSyntheticHost(root, 'prying-host', prying);
	const session = await openHostSession({artifacts: join(root, 'attempt'), exe, planDigest, taskIds: ['a']});
	const workspace = join(root, 'work');
	const state = join(root, 'state');
	await mkdir(workspace);
	await mkdir(state);
	const sandbox: Sandbox = {writable: [workspace, state], readable: [root], hidden: [secrets, session.dir], network: true};
	const outside = join(root, 'outside.txt');
	// Another service on the supervisor's loopback: not the host's to reach.
	const service = createServer((_request, response) => response.end('another service'));
	service.listen(0, '127.0.0.1');
	await once(service, 'listening');
	t.teardown(() => new Promise<void>(resolve => service.close(() => resolve())));
	const run = await runHostTask(session, {
		index: 0, task: {id: 'a', prompt: 'pry'}, workspace, stateDir: state, provider, maxSteps: 1, deadlineMs: 20_000,
		env: {SECRET_FILE: join(secrets, 'expected.txt'), OUTSIDE_FILE: outside, OTHER_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}/`},
		...(sandboxed ? {sandbox} : {}),
	});
	await closeHostSession(session);
	t.equal(run.failure, null, run.failure?.message ?? 'the host answered');
	return {seen: JSON.parse(run.outcome?.final_text ?? '{}'), outside, workspace};
}

t.test('a sandboxed host writes its workspace, but cannot read the suite or write beside it', {skip: usable.ok ? false : usable.reason}, async t => {
	const {seen, outside, workspace} = await runPrying(t, true);
	t.not(seen.secret, 'GRADER-EXPECTED', `the secret stays hidden (${seen.secret})`);
	t.not(seen.wrote, 'yes', `the write outside fails (${seen.wrote})`);
	t.notOk(existsSync(outside));
	t.ok(existsSync(join(workspace, 'answer.txt')), 'the workspace is writable');
	t.equal(seen.sandbox, '', 'its own tool commands are told not to nest another sandbox');
	t.match(seen.proxy, /^HTTP \d+$/, `its metering proxy answers (${seen.proxy})`);
	t.equal(seen.other, 'ERR ECONNREFUSED', 'nothing else on the supervisor\'s loopback is reachable, though the sandbox was asked with network');
});

t.test('the same host unsandboxed reads and writes both', async t => {
	const {seen, outside} = await runPrying(t, false);
	t.equal(seen.secret, 'GRADER-EXPECTED');
	t.equal(seen.wrote, 'yes');
	t.ok(existsSync(outside));
	t.equal(seen.other, 'HTTP 200', 'unsandboxed, the other service answers');
});
