import t from 'tap';
import {checkEnvelope, envelopeLimits, envelopeRefusals, SpendingUnenforceableError} from '../../../supervisor/search/envelope.js';
import {testPolicy} from './search-policy-fixture.js';

t.test('an enforceable envelope has no refusal', async t => {
	t.same(envelopeRefusals(testPolicy(), {providerCalls: false}), []);
	t.doesNotThrow(() => checkEnvelope(testPolicy(), {providerCalls: false}));
});

t.test('each unenforceable envelope is refused, singly', async t => {
	const cases: [RegExp, (policy: ReturnType<typeof testPolicy>) => void][] = [
		[/a money limit cannot be enforced/, policy => (policy.envelope.max_cost_usd = 5)],
		[/agent model calls have no limit/, policy => delete policy.envelope.max_model_calls.agent],
		[/tokens\(agent\) has no limit/, policy => delete policy.envelope.token_limits['tokens(agent)']],
		[/one agent call has no declared worst case \(agent_call_tokens\), so its attempts are unbounded/, policy => delete policy.envelope.agent_call_tokens],
	];
	for (const [reason, change] of cases) {
		const policy = testPolicy();
		change(policy);
		const refusals = envelopeRefusals(policy, {providerCalls: false});
		t.equal(refusals.length, 1, reason.source);
		t.match(refusals[0], reason);
	}
});

t.test('every reason at once, in one error that names them', async t => {
	const policy = testPolicy();
	policy.envelope = {...policy.envelope, max_cost_usd: 1, max_model_calls: {}, token_limits: {}};
	delete policy.envelope.agent_call_tokens;
	const error = (() => {
		try {
			checkEnvelope(policy, {providerCalls: false});
			return null;
		} catch (thrown) {
			return thrown;
		}
	})();
	t.ok(error instanceof SpendingUnenforceableError);
	t.equal((error as SpendingUnenforceableError).reason, 'spending-unenforceable');
	t.equal((error as SpendingUnenforceableError).reasons.length, 4);
});

t.test('a model-backed provider needs its own call limit, token limit and per-call worst case', async t => {
	const refusals = envelopeRefusals(testPolicy(), {providerCalls: true});
	t.same(refusals.map(refusal => refusal.split(' ')[0]), ['provider', 'tokens(provider)', 'one']);
	const policy = testPolicy();
	policy.envelope = {...policy.envelope, max_model_calls: {agent: 10, provider: 3}, token_limits: {'tokens(agent)': 10, 'tokens(provider)': 10}, provider_call_tokens: 5};
	t.same(envelopeRefusals(policy, {providerCalls: true}), []);
});

t.test('the limits are the envelope\'s, token units kept apart', async t => {
	t.same(envelopeLimits(testPolicy().envelope), {rounds: 3, candidate_evaluations: 9, task_attempts: 100, model_calls: {agent: 5000}, tokens: {'tokens(agent)': 10_000_000}});
});
