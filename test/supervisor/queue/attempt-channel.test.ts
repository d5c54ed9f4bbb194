import t from 'tap';
import {isOpen, openAttemptIds, publishAttempt, readManifest, readRefusals, recordRefusal, removeKeys, withdrawAttempt, forgetAttempt, type AttemptManifest} from '../../../supervisor/queue/attempt-channel.js';
import {checkNoLeaks} from '../../leak-check.js';
import {startRedis} from './redis-server.js';

checkNoLeaks(t);

const manifest = (id: string): AttemptManifest => ({
	schema: 'harness-lab/queue-attempt@1', attempt_id: id, queue: `hlab-${id}`, plan: '{"schema":"harness-lab/plan@1"}',
	keep_workspace: false, evidence_limit_bytes: 1024, lock_ms: 1000, auth: 'none', seal: null,
});

t.test('an attempt is open from publication to withdrawal, with its manifest and refusals; withdrawn, nothing of it stays', async t => {
	const redis = await startRedis(t);
	const client = redis.client();
	await publishAttempt(client, manifest('b'));
	await publishAttempt(client, manifest('a'));
	t.same(await openAttemptIds(client), ['a', 'b']);
	t.same(await readManifest(client, 'a'), manifest('a'));
	t.equal(await isOpen(client, 'a'), true);
	await recordRefusal(client, 'a', {worker: 'w1', differences: ['tool git: version 2.39 is now 2.43']});
	await recordRefusal(client, 'a', {worker: 'w2', differences: ['auth: the API key variable OPENAI_API_KEY is not set']});
	t.same((await readRefusals(client, 'a', 1)).map(refusal => refusal.worker), ['w2'], 'read from where the reader stopped');
	await withdrawAttempt(client, 'a');
	t.equal(await isOpen(client, 'a'), false);
	t.equal(await readManifest(client, 'a'), null);
	t.equal((await readRefusals(client, 'a', 0)).length, 2, 'what the nodes said stays until the coordinator has read it');
	await forgetAttempt(client, 'a');
	t.same(await readRefusals(client, 'a', 0), []);
	await withdrawAttempt(client, 'b');
	await forgetAttempt(client, 'b');
	await client.set('bull:hlab-b:meta', 'x');
	await removeKeys(client, 'bull:hlab-b:*');
	t.same(await client.keys('*'), []);
});
