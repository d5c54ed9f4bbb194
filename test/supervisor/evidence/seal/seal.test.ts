import {randomBytes, randomUUID} from 'node:crypto';
import {statSync} from 'node:fs';
import {join} from 'node:path';
import t from 'tap';
import {checkChain, createAttemptKey, keyStoreDir, KeyStoreError, readAttemptKey, sealRecord, type ChainLine} from '../../../../supervisor/evidence/seal/index.js';
import {tempDir} from '../../../temp-dir.js';

t.test('the key store: the override, then XDG_STATE_HOME, then ~/.local/state; folder 0700, key 0600, never replaced', async t => {
	const dir = await tempDir(t);
	t.equal(keyStoreDir({HLAB_STATE_DIR: dir}), join(dir, 'keys'));
	t.equal(keyStoreDir({XDG_STATE_HOME: '/x/state'}), '/x/state/harness-lab/keys');
	t.match(keyStoreDir({XDG_STATE_HOME: 'relative'}), /\/\.local\/state\/harness-lab\/keys$/, 'a relative XDG_STATE_HOME is ignored, as the spec says');
	const env = {HLAB_STATE_DIR: dir};
	const id = randomUUID();
	const {path, key} = createAttemptKey(id, env);
	t.equal(statSync(join(dir, 'keys')).mode & 0o777, 0o700);
	t.equal(statSync(path).mode & 0o777, 0o600);
	t.same(readAttemptKey(id, env), key);
	const again = (() => {
		try {
			return createAttemptKey(id, env);
		} catch (error) {
			return error;
		}
	})();
	t.ok(again instanceof KeyStoreError && /EEXIST/.test(again.message), 'an attempt id has one key, written once');
	t.same(readAttemptKey(id, env), key, 'and it stays the same');
	t.equal(readAttemptKey(randomUUID(), env), null);
	t.equal(readAttemptKey('../../etc/passwd', env), null, 'a forged attempt id cannot name a file outside the store');
});

t.test('the chain: each MAC over the one before; a forged, edited, removed or reordered record breaks it there', async t => {
	const key = randomBytes(32);
	const records: NonNullable<ChainLine['record']>[] = [];
	let previous = 'attempt-1';
	for (const index of [0, 1, 2]) {
		const record = sealRecord(key, previous, {index}, {[`tasks/${index}/result.json`]: 'sha256:00'});
		previous = record.seal.mac;
		records.push(record);
	}
	const lines = (list: typeof records) => list.map((record, at) => ({line: at + 1, record}));
	t.same(checkChain(key, 'attempt-1', lines(records)), ['sealed', 'sealed', 'sealed']);
	t.same(checkChain(key, 'attempt-2', lines(records)), ['forged', 'after_break', 'after_break'], 'the first MAC is over the attempt id');
	t.same(checkChain(randomBytes(32), 'attempt-1', lines(records)), ['forged', 'after_break', 'after_break'], 'another key verifies nothing');
	t.same(checkChain(key, 'attempt-1', lines([records[0]!, records[2]!])), ['sealed', 'forged'], 'a removed record');
	t.same(checkChain(key, 'attempt-1', lines([records[1]!, records[0]!, records[2]!])), ['forged', 'after_break', 'after_break'], 'reordered records');
	t.same(checkChain(key, 'attempt-1', lines([records[0]!, {...records[1]!, index: 7}, records[2]!])), ['sealed', 'forged', 'after_break'], 'an edited record');
	const files = {...records[1]!, seal: {...records[1]!.seal!, files: {}}};
	t.same(checkChain(key, 'attempt-1', lines([records[0]!, files, records[2]!])), ['sealed', 'forged', 'after_break'], 'a record whose sealed digests were removed');
	const {seal: _seal, ...bare} = records[1]!;
	t.same(checkChain(key, 'attempt-1', lines([records[0]!, bare, records[2]!])), ['sealed', 'unsealed', 'after_break']);
	t.same(checkChain(key, 'attempt-1', [{line: 1, record: records[0]!}, {line: 2, record: null}, {line: 3, record: records[1]!}]), ['sealed', 'unreadable', 'after_break']);
});
