import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {walkTree} from '../../files/walk-tree.js';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {startRedis} from '../supervisor/queue/redis-server.js';
import {freeze, scratch} from './experiment-fixture.js';
import {evalEntry} from './install-copy.js';
import {startHlab, testQueueSecret, waitFor} from './queue-fixture.js';

checkNoLeaks(t);

const password = 'redis-pa55word-for-the-test';

/** What a model's command would run to find credentials: every process's argv, and its own environment. */
const snoop = 'ps -eo args; for f in /proc/[0-9]*/cmdline; do tr "\\0" " " < "$f"; echo; done; env';

t.test('neither the Redis password nor the queue secret is on a node\'s command line or in a task\'s environment', async t => {
	const redis = await startRedis(t, ['--requirepass', password]);
	const dir = await scratch(t);
	const responses = join(dir, 'responses.json');
	await writeFile(responses, JSON.stringify({schema: 'harness-lab/response-script@1', tasks: {answer_from_prompt: [
		{content: null, tool_calls: [{type: 'function', function: {name: 'run_command', arguments: {command: snoop}}}]},
		{content: null, tool_calls: [{type: 'function', function: {name: 'done', arguments: {summary: 'looked around'}}}]},
	]}}));
	const plan = await freeze({dir, tasks: 'answer_from_prompt', policy: {concurrency: 1}, responsesPath: responses});
	const env = {HLAB_QUEUE_SECRET: testQueueSecret, HLAB_REDIS_PASSWORD: password};
	const node = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'n1'], undefined, env);
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--json'], undefined, env);
	await waitFor('the node to serve', () => node.stderr().includes('serving attempt'));
	const argv = (await readFile(`/proc/${node.pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
	t.match(argv, 'queue-node', 'the node\'s own command line, as ps shows it');
	const run = await coordinator.ended;
	t.equal(run.record.exit_code === 0 || run.record.exit_code === 1, true, coordinator.stderr());
	const evidence = (await Promise.all((await walkTree(join(artifacts, 'tasks'))).map(file => readFile(file.path, 'utf8')))).join('\n');
	t.match(evidence, /hlab\.js queue-node --queue redis:\/\/127\.0\.0\.1/, 'the command ran and saw the node\'s command line');
	t.match(evidence, /PATH=/, 'and printed its environment');
	for (const [what, value] of [['the Redis password', password], ['the queue secret', testQueueSecret]] as const) {
		t.notOk(argv.includes(value), `${what} is not on the node's command line`);
		t.notOk(evidence.includes(value), `${what} is nowhere a task's command could find it`);
	}
	await node.stop();
});

t.test('a queue without a secret needs --insecure-queue, on the coordinator and on a node: one line, exit 2', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt'});
	for (const args of [['eval', '--plan', plan, '--artifacts', join(dir, 'queued'), '--queue', 'redis://127.0.0.1:1'], ['queue-node', '--queue', 'redis://127.0.0.1:1']]) {
		const run = await runInGroup({argv: [process.execPath, evalEntry(), ...args], env: {HLAB_QUEUE_SECRET: undefined}, deadlineMs: 60_000});
		const stderr = run.stderr?.toString() ?? '';
		t.equal(run.record.exit_code, 2, stderr);
		t.match(stderr, /^hlab: a queue needs a shared secret: set HLAB_QUEUE_SECRET or give --queue-secret-file FILE .*--insecure-queue.*\n$/);
		t.equal(stderr.trim().split('\n').length, 1, 'one line');
	}
});

t.test('a password in the queue URL is refused with one line that says where it goes', async t => {
	const run = await runInGroup({argv: [process.execPath, evalEntry(), 'queue-node', '--queue', 'redis://:s3cret@127.0.0.1:1'], env: {HLAB_QUEUE_SECRET: testQueueSecret}, deadlineMs: 60_000});
	const stderr = run.stderr?.toString() ?? '';
	t.equal(run.record.exit_code, 2, stderr);
	t.match(stderr, /^hlab: --queue redis:\/\/:\*\*\*@127\.0\.0\.1:1\/? holds the Redis password.*HLAB_REDIS_PASSWORD or --redis-password-file FILE instead\n$/);
	t.notMatch(stderr, /s3cret/);
});

t.test('--insecure-queue on both sides runs, and the attempt says it was unauthenticated', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt', policy: {concurrency: 1}});
	const secretFile = join(dir, 'secret');
	await writeFile(secretFile, `${testQueueSecret}\n`);
	// A node with the secret (from a file) does not serve an unauthenticated attempt; the insecure one does.
	const careful = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'careful', '--queue-secret-file', secretFile], undefined, {});
	const node = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'open', '--insecure-queue'], undefined, {});
	const artifacts = join(dir, 'queued');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url, '--insecure-queue'], undefined, {});
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 0, coordinator.stderr());
	t.match(run.stdout?.toString(), /queue_auth none/, 'the summary line says so');
	t.match(coordinator.stderr(), /warning: --insecure-queue/);
	t.match(careful.stderr(), /refused attempt .*the attempt is unauthenticated/s);
	t.match(JSON.parse(await readFile(join(artifacts, 'queue.json'), 'utf8')), {queue_auth: 'none'});
	t.match(JSON.parse(await readFile(join(artifacts, 'attempt.json'), 'utf8')), {queue: {auth: 'none'}});
	const report = JSON.parse(await readFile(join(artifacts, 'report.json'), 'utf8')) as {leak_audit: {nodes: unknown[]}; problems: string[]};
	t.match(report, {queue: {auth: 'none'}});
	t.match(report.leak_audit.nodes, [{node: 'open', backend: /\w/, survivors: []}], 'the node that answered posted its final audit, unsealed, and the report holds it');
	t.same(report.problems, []);
	await Promise.all([careful.stop(), node.stop()]);
});
