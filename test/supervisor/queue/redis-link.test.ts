import t from 'tap';
import {openRedisLink, parseRedisUrl} from '../../../supervisor/queue/redis-link.js';
import {checkNoLeaks} from '../../leak-check.js';
import {freePort, startRedis} from './redis-server.js';

checkNoLeaks(t);

t.test('a queue URL is redis:// or rediss:// with a host and at most a database number; the password is never shown', async t => {
	t.throws(() => parseRedisUrl('http://127.0.0.1:6379'), {reason: 'queue_url', message: /redis:\/\/ or rediss:\/\//});
	t.throws(() => parseRedisUrl('not a url'), {reason: 'queue_url', message: /is not a URL/});
	t.throws(() => parseRedisUrl('redis://127.0.0.1:6379/queue'), {reason: 'queue_url', message: /database number/});
	const parsed = parseRedisUrl('rediss://:s3cret@cache.example:6380/2');
	t.equal(parsed.shown, 'rediss://:***@cache.example:6380/2');
	t.notMatch(parsed.shown, /s3cret/);
});

t.test('a Redis that does not answer is one error naming it, before anything is written', async t => {
	const port = await freePort();
	await t.rejects(openRedisLink(`redis://127.0.0.1:${port}`), {reason: 'redis_unreachable', message: new RegExp(`Redis at redis://127.0.0.1:${port}/? is unreachable`)});
});

t.test('a password in the URL is used; without it a protected Redis refuses', async t => {
	const redis = await startRedis(t, ['--requirepass', 'pa55word']);
	const link = await openRedisLink(`redis://:pa55word@127.0.0.1:${redis.port}/1`);
	const client = link.client();
	t.teardown(() => client.disconnect());
	await client.set('hlab-test', 'x');
	t.equal(await client.get('hlab-test'), 'x');
	await t.rejects(openRedisLink(`redis://127.0.0.1:${redis.port}`), {reason: 'redis_unreachable', message: /is unreachable/});
});
