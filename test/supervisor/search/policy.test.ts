import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {fingerprintPolicy} from '../../../supervisor/search/policy-schema.js';
import {parsePolicy, PolicyError, readPolicy} from '../../../supervisor/search/read-policy.js';
import {tempDir} from '../../temp-dir.js';
import {testPolicy} from './search-policy-fixture.js';

const reasonOf = (run: () => unknown): string | null => {
	try {
		run();
		return null;
	} catch (error) {
		return error instanceof PolicyError ? error.reason : `not a PolicyError: ${String(error)}`;
	}
};

t.test('a search must be authorized explicitly: absent or anything else refuses', async t => {
	const {autonomous_search: _absent, ...absent} = testPolicy();
	t.equal(reasonOf(() => parsePolicy(absent)), 'not-authorized');
	t.equal(reasonOf(() => parsePolicy({...testPolicy(), autonomous_search: true})), 'not-authorized');
	t.equal(reasonOf(() => parsePolicy({...testPolicy(), autonomous_search: 'Authorized'})), 'not-authorized');
	t.equal(reasonOf(() => parsePolicy(null)), 'not-authorized');
	t.equal(reasonOf(() => parsePolicy(testPolicy())), null);
});

t.test('a policy with an unknown field or operation is invalid', async t => {
	t.equal(reasonOf(() => parsePolicy({...testPolicy(), extra: 1})), 'invalid');
	t.equal(reasonOf(() => parsePolicy({...testPolicy(), allowed_operations: ['add_tool']})), 'invalid');
	t.equal(reasonOf(() => parsePolicy({...testPolicy(), envelope: {...testPolicy().envelope, max_rounds: 0}})), 'invalid');
});

t.test('the fingerprint covers every part of the policy', async t => {
	const base = fingerprintPolicy(testPolicy());
	const changes: [string, (policy: ReturnType<typeof testPolicy>) => void][] = [
		['authorized tools', policy => policy.authorized_tools.pop()],
		['operations', policy => policy.allowed_operations.pop()],
		['ceilings', policy => (policy.ceilings.max_steps += 1)],
		['retries', policy => (policy.max_retries += 1)],
		['k', policy => (policy.comparison_k = 3)],
		['a limit of the envelope', policy => (policy.envelope.max_task_attempts += 1)],
		['a token limit', policy => (policy.envelope.token_limits['tokens(agent)']! += 1)],
	];
	for (const [what, change] of changes) {
		const policy = testPolicy();
		change(policy);
		t.not(fingerprintPolicy(policy), base, what);
	}
	t.equal(fingerprintPolicy(testPolicy()), base, 'and nothing else');
});

t.test('a policy file is read, and an unreadable one named', async t => {
	const dir = await tempDir(t);
	const path = join(dir, 'policy.json');
	await writeFile(path, JSON.stringify(testPolicy()));
	t.same(await readPolicy(path), testPolicy());
	t.equal(((await readPolicy(join(dir, 'absent.json')).catch((error: unknown) => error)) as PolicyError).reason, 'unreadable');
	await writeFile(path, '{');
	t.equal(((await readPolicy(path).catch((error: unknown) => error)) as PolicyError).reason, 'unreadable');
});
