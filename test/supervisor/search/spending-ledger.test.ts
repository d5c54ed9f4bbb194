import t from 'tap';
import {SpendingLedger} from '../../../supervisor/search/spending-ledger.js';
import {spendOf} from '../../../supervisor/search/spend.js';

const limits = spendOf({rounds: 2, candidate_evaluations: 3, task_attempts: 4, model_calls: {agent: 10}, tokens: {'tokens(agent)': 100, 'tokens(provider)': 100}});
const attempt = spendOf({task_attempts: 1, model_calls: {agent: 3}, tokens: {'tokens(agent)': 30}});

t.test('a unit reserves its worst case; one that could cross a limit never starts', async t => {
	const ledger = new SpendingLedger(limits);
	t.ok(ledger.reserve('task-attempt', 'a', attempt).ok);
	t.ok(ledger.reserve('task-attempt', 'b', attempt).ok);
	t.ok(ledger.reserve('task-attempt', 'c', attempt).ok);
	const refused = ledger.reserve('task-attempt', 'd', attempt);
	t.notOk(refused.ok, 'three held reservations of 3 calls leave room for 1 more, not 3');
	t.match(refused.ok ? '' : refused.detail, /task-attempt d could cross the envelope: model_calls.agent 12 > 10, tokens.tokens\(agent\) 120 > 100/);
	t.equal(ledger.entries.length, 3, 'the refused unit left no entry');
	t.same(ledger.spent(), spendOf({model_calls: {}, tokens: {}}), 'reservations are not charges');
});

t.test('a settled unit is charged what was measured, which frees the rest of its reservation', async t => {
	const ledger = new SpendingLedger(limits);
	const first = ledger.reserve('task-attempt', 'a', attempt);
	if (!first.ok) throw new Error(first.detail);
	t.same(ledger.settle(first.id, {task_attempts: 1, model_calls: {agent: 1}, tokens: {'tokens(agent)': 9}}), []);
	t.same(ledger.spent(), spendOf({task_attempts: 1, model_calls: {agent: 1}, tokens: {'tokens(agent)': 9}}));
	for (const label of ['b', 'c', 'd']) t.ok(ledger.reserve('task-attempt', label, attempt).ok, label);
});

t.test('unknown counts keep their reservation charged, and the entry says so', async t => {
	const ledger = new SpendingLedger(limits);
	const held = ledger.reserve('task-attempt', 'a', attempt);
	if (!held.ok) throw new Error(held.detail);
	t.same(ledger.settle(held.id, {task_attempts: 1, model_calls: {agent: 2}, tokens: {'tokens(agent)': null}}), []);
	t.same(ledger.entries[0]!.charged, spendOf({task_attempts: 1, model_calls: {agent: 2}, tokens: {'tokens(agent)': 30}}));
	t.match(ledger.entries[0]!.note, /not measured, charged as reserved: tokens.tokens\(agent\)/);
});

t.test('a measurement above the reservation is charged and returned as exceeded', async t => {
	const ledger = new SpendingLedger(limits);
	const held = ledger.reserve('model-call', 'judge 1', spendOf({model_calls: {agent: 1}, tokens: {'tokens(agent)': 10}}));
	if (!held.ok) throw new Error(held.detail);
	t.same(ledger.settle(held.id, {model_calls: {agent: 1}, tokens: {'tokens(agent)': 25}}), ['model-call judge 1: tokens.tokens(agent) 25 > 10']);
	t.equal(ledger.spent().tokens['tokens(agent)'], 25);
});

t.test('an abandoned unit is charged in full with the error type; a released one nothing', async t => {
	const ledger = new SpendingLedger(limits);
	const evaluation = ledger.reserve('evaluation', 'node-000 seed 1', spendOf({candidate_evaluations: 1}));
	const task = ledger.reserve('task-attempt', 'x', attempt);
	const unused = ledger.reserve('task-attempt', 'y', attempt);
	if (!evaluation.ok || !task.ok || !unused.ok) throw new Error('reservations');
	ledger.release(unused.id);
	t.same(ledger.abandon('TypeError').map(entry => entry.label), ['node-000 seed 1', 'x']);
	t.same(ledger.spent(), spendOf({candidate_evaluations: 1, task_attempts: 1, model_calls: {agent: 3}, tokens: {'tokens(agent)': 30}}));
	t.equal(ledger.entries[1]!.note, 'TypeError');
	t.equal(ledger.entries[2]!.state, 'released');
	t.throws(() => ledger.settle(task.id, {}), /not open/);
});

t.test('token units are never added together', async t => {
	const ledger = new SpendingLedger(limits);
	t.ok(ledger.reserve('model-call', 'agent', spendOf({tokens: {'tokens(agent)': 80}})).ok);
	t.ok(ledger.reserve('model-call', 'provider', spendOf({tokens: {'tokens(provider)': 80}})).ok, '80 + 80 is not compared with either limit');
	t.notOk(ledger.reserve('model-call', 'unit without a limit', spendOf({tokens: {'tokens(judge)': 1}})).ok, 'a unit without a limit may spend nothing');
});
