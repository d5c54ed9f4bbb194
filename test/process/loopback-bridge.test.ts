import {once} from 'node:events';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {networkInterfaces} from 'node:os';
import t, {type Test} from 'tap';
import {checkSandbox, openLoopbackBridge, runInGroup, type Sandbox} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const usable = checkSandbox();
const skip = usable.ok ? false : usable.reason;

/** An HTTP server on the supervisor's loopback that answers with its own name. */
async function serve(t: Test, name: string): Promise<number> {
	const server: Server = createServer((_request, response) => response.end(name));
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	t.teardown(() => new Promise<void>(resolve => server.close(() => resolve())));
	return (server.address() as AddressInfo).port;
}

/** What a sandboxed Node sees when it fetches each address: the body, or the error's code. */
async function fetchInside(t: Test, sandbox: Sandbox, urls: string[]): Promise<{code: number | null; seen: string[]}> {
	const workspace = await tempDir(t, 'hlab-bridge-ws-');
	const script = `const urls = ${JSON.stringify(urls)};
for (const url of urls) {
	try { console.log(await (await fetch(url, {signal: AbortSignal.timeout(3000)})).text()); }
	catch (error) { console.log('ERR ' + (error.cause?.code ?? error.name)); }
}`;
	const run = await runInGroup({argv: [process.execPath, '--input-type=module', '-e', script], cwd: workspace, deadlineMs: 30_000, sandbox: {...sandbox, writable: [workspace]}});
	return {code: run.record.exit_code, seen: (run.stdout?.toString() ?? '').trim().split('\n')};
}

/** An address of this machine that is not loopback, when it has one. */
function outsideAddress(): string | null {
	return Object.values(networkInterfaces()).flat().find(entry => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address ?? null;
}

const closed: Sandbox = {writable: [], readable: [], hidden: [], network: false};

t.test('without network, a bridged port of the supervisor\'s loopback is reachable at its own address, and no other', {skip}, async t => {
	const proxy = await serve(t, 'the proxy');
	const other = await serve(t, 'another service');
	const bridge = await openLoopbackBridge(proxy);
	t.teardown(() => bridge.close());
	const {code, seen} = await fetchInside(t, {...closed, bridges: [bridge.bridge]}, [`http://127.0.0.1:${proxy}/`, `http://127.0.0.1:${other}/`]);
	t.equal(code, 0);
	t.same(seen, ['the proxy', 'ERR ECONNREFUSED'], 'the bridged port answers; a port that is not bridged is refused');
});

t.test('without the bridge, the same port is out of reach: the sandbox\'s loopback is its own', {skip}, async t => {
	const proxy = await serve(t, 'the proxy');
	const {seen} = await fetchInside(t, closed, [`http://127.0.0.1:${proxy}/`]);
	t.same(seen, ['ERR ECONNREFUSED']);
});

t.test('a host that is not loopback cannot be reached through a bridged sandbox', {skip: skip || (outsideAddress() === null ? 'this machine has no address but loopback' : false)}, async t => {
	const proxy = await serve(t, 'the proxy');
	const bridge = await openLoopbackBridge(proxy);
	t.teardown(() => bridge.close());
	const address = outsideAddress()!;
	const listening = createServer((_request, response) => response.end('outside'));
	listening.listen(0, address);
	await once(listening, 'listening');
	t.teardown(() => new Promise<void>(resolve => listening.close(() => resolve())));
	const port = (listening.address() as AddressInfo).port;
	const direct = await fetch(`http://${address}:${port}/`).then(response => response.text());
	t.equal(direct, 'outside', 'outside the sandbox the address answers');
	const {seen} = await fetchInside(t, {...closed, bridges: [bridge.bridge]}, [`http://${address}:${port}/`]);
	t.match(seen[0], /^ERR (ENETUNREACH|ECONNREFUSED|EHOSTUNREACH|TimeoutError)$/, `inside it does not: ${seen[0]}`);
});

t.test('the command\'s exit status and its death by a signal come through the bridge unchanged', {skip}, async t => {
	const proxy = await serve(t, 'the proxy');
	const bridge = await openLoopbackBridge(proxy);
	t.teardown(() => bridge.close());
	const workspace = await tempDir(t, 'hlab-bridge-ws-');
	const sandbox = {...closed, writable: [workspace], bridges: [bridge.bridge]};
	const exited = await runInGroup({argv: ['/bin/sh', '-c', 'exit 7'], cwd: workspace, deadlineMs: 20_000, sandbox});
	t.equal(exited.record.exit_code, 7);
	// bubblewrap reports its command's death by a signal as 128 + the signal, bridged or not.
	const killed = await runInGroup({argv: ['/bin/sh', '-c', 'kill -TERM $$'], cwd: workspace, deadlineMs: 20_000, sandbox});
	const plain = await runInGroup({argv: ['/bin/sh', '-c', 'kill -TERM $$'], cwd: workspace, deadlineMs: 20_000, sandbox: {...sandbox, bridges: []}});
	t.same([killed.record.exit_code, killed.record.signal], [plain.record.exit_code, plain.record.signal], `killed: ${JSON.stringify([killed.record.exit_code, killed.record.signal])}`);
	t.equal(plain.record.exit_code, 128 + 15);
});
