import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {Plan} from '../../../supervisor/plan/plan-schema.js';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {reportAgent, reportResponses} from '../cartridge-commands/cartridge-cli.js';

checkNoLeaks(t);

async function frozenBudgets(t: Test, extra: string[]): Promise<Plan['budgets']> {
	const plan = join(await tempDir(t, 'hlab-cartridge-budgets-'), 'plan.json');
	const frozen = await hlab(['eval', '--cartridge', reportAgent, '--responses', reportResponses, ...extra, '--freeze', plan]);
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	return Plan.parse(JSON.parse(await readFile(plan, 'utf8'))).budgets;
}

t.test('a cartridge plan takes its contract\'s budgets (config.yaml max_steps 4, the default deadline), not --max-steps\' default 30', async t => {
	const budgets = await frozenBudgets(t, []);
	t.equal(budgets.max_steps, 4);
	t.equal(budgets.timeout_ms, 120_000);
});

t.test('flags given on the command line override the contract, each on its own', async t => {
	t.match(await frozenBudgets(t, ['--max-steps', '9', '--timeout', '30s']), {max_steps: 9, timeout_ms: 30_000});
	t.match(await frozenBudgets(t, ['--max-steps', '30']), {max_steps: 30, timeout_ms: 120_000}, 'the default\'s value, given, is a choice');
});

t.test('a plan of built-in tasks keeps the flags\' defaults', async t => {
	const plan = join(await tempDir(t, 'hlab-builtin-budgets-'), 'plan.json');
	const frozen = await hlab(['eval', '--task', 'sales_report', '--freeze', plan]);
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	t.match(Plan.parse(JSON.parse(await readFile(plan, 'utf8'))).budgets, {max_steps: 30, timeout_ms: 120_000});
});
