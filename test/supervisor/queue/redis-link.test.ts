import t from 'tap';
import {openRedisLink, parseRedisUrl} from '../../../supervisor/queue/redis-link.js';
import {checkNoLeaks} from '../../leak-check.js';
import {freePort, startRedis} from './redis-server.js';

checkNoLeaks(t);

t.test('a queue URL is redis:// or rediss:// with a host and at most a database number', async t => {
	t.throws(() => parseRedisUrl('http://127.0.0.1:6379'), {reason: 'queue_url', message: /redis:\/\/ or rediss:\/\//});
	t.throws(() => parseRedisUrl('not a url'), {reason: 'queue_url', message: /is not a URL/});
	t.throws(() => parseRedisUrl('redis://127.0.0.1:6379/queue'), {reason: 'queue_url', message: /database number/});
	t.equal(parseRedisUrl('rediss://cache.example:6380/2').shown, 'rediss://cache.example:6380/2');
});

t.test('a URL that holds the password is refused, never shown, and says where the password goes', async t => {
	const refused = (() => {
		try {
			parseRedisUrl('rediss://:s3cret@cache.example:6380/2');
		} catch (error) {
			return error as Error & {reason: string};
		}
		return null;
	})();
	t.equal(refused?.reason, 'queue_url');
	t.match(refused?.message, /holds the Redis password.*HLAB_REDIS_PASSWORD or --redis-password-file/);
	t.notMatch(refused?.message, /s3cret/);
});

t.test('a Redis that does not answer is one error naming it, before anything is written', async t => {
	const port = await freePort();
	await t.rejects(openRedisLink(`redis://127.0.0.1:${port}`, null), {reason: 'redis_unreachable', message: new RegExp(`Redis at redis://127.0.0.1:${port}/? is unreachable`)});
});

t.test('the password given beside the URL is used; without it a protected Redis refuses', async t => {
	const redis = await startRedis(t, ['--requirepass', 'pa55word']);
	const link = await openRedisLink(`redis://127.0.0.1:${redis.port}/1`, 'pa55word');
	const client = link.client();
	t.teardown(() => client.disconnect());
	await client.set('hlab-test', 'x');
	t.equal(await client.get('hlab-test'), 'x');
	await t.rejects(openRedisLink(`redis://127.0.0.1:${redis.port}`, null), {reason: 'redis_auth', message: /needs a password: give it in HLAB_REDIS_PASSWORD or --redis-password-file \(authentication failed: NOAUTH/});
});

t.test('a wrong password is named as an authentication failure, never as an unreachable Redis, and never shown', async t => {
	const redis = await startRedis(t, ['--requirepass', 'pa55word']);
	const refused = await openRedisLink(`redis://127.0.0.1:${redis.port}`, 'wrong-pa55').then(() => null, (error: Error & {reason: string}) => error);
	t.equal(refused?.reason, 'redis_auth');
	t.match(refused?.message, /^Redis at redis:\/\/127\.0\.0\.1:\d+\/? refused the password given in HLAB_REDIS_PASSWORD or --redis-password-file \(authentication failed: WRONGPASS/);
	t.notMatch(refused?.message, /unreachable|Connection is closed|wrong-pa55/);
	t.notMatch(refused?.message, /\n/, 'one line');
});
