import {existsSync} from 'node:fs';
import {join} from 'node:path';
import t from 'tap';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {startRedis} from '../supervisor/queue/redis-server.js';
import {freeze, scratch} from './experiment-fixture.js';
import {evalEntry} from './install-copy.js';
import {testQueueSecret} from './queue-fixture.js';

checkNoLeaks(t);

const hlab = (args: string[], env: Record<string, string>) => runInGroup({argv: [process.execPath, evalEntry(), ...args], env, deadlineMs: 60_000});

t.test('a wrong Redis password is named as an authentication failure, in one line and exit 2, by the coordinator and by a queue node', async t => {
	const redis = await startRedis(t, ['--requirepass', 'the-right-pa55word']);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt', policy: {concurrency: 1}});
	const artifacts = join(dir, 'queued');
	const env = {HLAB_QUEUE_SECRET: testQueueSecret, HLAB_REDIS_PASSWORD: 'a-wrong-pa55word'};
	const runs = {
		coordinator: await hlab(['eval', '--plan', plan, '--artifacts', artifacts, '--queue', redis.url], env),
		'queue node': await hlab(['queue-node', '--queue', redis.url, '--name', 'n1'], env),
	};
	for (const [who, run] of Object.entries(runs)) {
		const stderr = run.stderr?.toString() ?? '';
		t.equal(run.record.exit_code, 2, `${who}: ${stderr}`);
		t.match(stderr, /^hlab: Redis at redis:\/\/127\.0\.0\.1:\d+\/? refused the password given in HLAB_REDIS_PASSWORD or --redis-password-file \(authentication failed: WRONGPASS[^\n]*\)\n$/, `${who}: one line naming the failure`);
		t.notMatch(stderr, /unreachable|Connection is closed|a-wrong-pa55word/, who);
	}
	t.notOk(existsSync(artifacts), 'the coordinator wrote no evidence');
});
