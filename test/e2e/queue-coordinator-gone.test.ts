import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {checkNoLeaks} from '../leak-check.js';
import {startRedis} from '../supervisor/queue/redis-server.js';
import {freeze, scratch} from './experiment-fixture.js';
import {answeringNodes, ledgerLines, startHlab, waitFor} from './queue-fixture.js';

checkNoLeaks(t);

t.test('a node leaves the attempt of a coordinator that died, and serves the next attempt without --recover', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const first = await freeze({dir, name: 'a', tasks: 'json_config_migration,answer_from_prompt,test_failure_fix,implement_function,sales_report', policy: {concurrency: 1}});
	const node = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'n1']);
	const dead = join(dir, 'dead');
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', first, '--artifacts', dead, '--queue', redis.url, '--node-lock', '2s', '--json']);
	await waitFor('a recorded task', async () => await ledgerLines(join(dead, 'ledger.jsonl')) >= 2);
	process.kill(coordinator.pid, 'SIGKILL');
	await coordinator.ended;
	t.equal(await redis.client().scard('hlab:attempts'), 1, 'the dead coordinator left its attempt open');
	await waitFor('the node to leave the dead coordinator\'s attempt', () => /leaving attempt \S+: its coordinator is gone \(no heartbeat for 5000 ms\)/.test(node.stderr()), 30_000);
	const second = await freeze({dir, name: 'b', tasks: 'answer_from_prompt', policy: {concurrency: 1}});
	const artifacts = join(dir, 'next');
	const next = await startHlab(t, undefined, ['eval', '--plan', second, '--artifacts', artifacts, '--queue', redis.url, '--node-wait', '60s', '--json']);
	const run = await next.ended;
	t.equal(run.record.exit_code, 0, next.stderr());
	t.equal(Report.parse(JSON.parse(await readFile(join(artifacts, 'report.json'), 'utf8'))).completion, 'finished');
	t.same(await answeringNodes(artifacts), ['n1']);
	const late = await startHlab(t, undefined, ['queue-node', '--queue', redis.url, '--name', 'late']);
	await waitFor('a node started later to skip the dead attempt', () => /skipping attempt \S+: its coordinator is gone \(no heartbeat\)/.test(late.stderr()), 30_000);
	t.equal((await late.stop()).record.exit_code, 0, late.stderr());
	t.equal((await node.stop()).record.exit_code, 0, node.stderr());
});
