import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {PassThrough, Readable} from 'node:stream';
import t from 'tap';
import type {ReportSummary} from '../../controller-protocol/index.js';
import {sampleController} from '../../examples/controller/sample-controller.js';
import {dispatchExperimentController} from '../../sdk/index.js';

/** One call of the sample controller through the SDK dispatcher, in this process. */
async function call(method: string, params: unknown): Promise<{status: number; response: {result?: any; error?: {code: string}}}> {
	const output = new PassThrough();
	const chunks: Buffer[] = [];
	output.on('data', chunk => chunks.push(chunk));
	const status = await dispatchExperimentController(sampleController, {
		input: Readable.from([Buffer.from(JSON.stringify({version: 1, method, params}))]),
		output,
		diagnostics: new PassThrough(),
		exit: () => {},
	});
	return {status, response: JSON.parse(Buffer.concat(chunks).toString('utf8'))};
}

t.test('the grader compares the workspace files line by line', async t => {
	const workspace = await mkdtemp(join(tmpdir(), 'hlab-sample-'));
	t.teardown(() => rm(workspace, {recursive: true, force: true}));
	const {response} = await call('tasks', {});
	const reverse = response.result.tasks.find((task: {id: string}) => task.id === 'reverse');
	const score = async (text: string | null) => {
		if (text !== null) await writeFile(join(workspace, 'reversed.txt'), text);
		return (await call('score', {task: reverse, workspace, messages: [], result: {status: 'done'}})).response.result;
	};
	t.match(await score(null), {passed: false, score: 0, details: 'reversed.txt is missing'});
	t.match(await score('four\nthree\ntwo\none\n'), {passed: true, score: 1});
	t.match(await score('four\r\nthree\r\ntwo\r\none'), {passed: true, score: 1}, 'Windows line ends and a missing final newline are tolerated');
	t.match(await score('four\nthree\nONE\nTWO\n'), {passed: false, score: 0.5, details: /2 of 4/});
	t.match(await score('four\nthree\ntwo\none\nfive\nsix\n'), {passed: false, details: /6 lines found/}, 'extra lines fail');
	t.equal((await score('four\nthree\ntwo\none\nfive\nsix\n')).score.toFixed(3), (4 / 6).toFixed(3), 'and count against the score');
});

t.test('acceptance follows the reports and the declared policy', async t => {
	const ids = ['greeting', 'shout', 'reverse', 'count'];
	const report = (passed: number, totalTokens: number | null, plan = 'sha256:plan', order = ids): ReportSummary => ({
		plan_digest: plan,
		tasks: order.map((id, index) => ({id, passed: index < passed, score: null, failure: null, turns: 2, total_tokens: null, wall_ms: 10})),
		totals: {tasks: order.length, passed, failed: order.length - passed, turns: 2 * order.length, total_tokens: totalTokens, cost_usd: null, wall_ms: 40},
	});
	const decide = async (baseline: ReportSummary, candidate: ReportSummary, policy: Record<string, unknown> = {}) => (await call('accept', {baseline, candidate, policy})).response.result.decision;
	t.equal(await decide(report(2, 100), report(3, 100)), 'accept', 'more tasks pass');
	t.equal(await decide(report(3, 100), report(2, 50)), 'reject', 'fewer tasks pass, whatever the tokens');
	t.equal(await decide(report(3, 100), report(3, 80)), 'accept', 'as many pass with fewer tokens');
	t.equal(await decide(report(3, 100), report(3, 120)), 'revise', 'as many pass with more tokens');
	t.equal(await decide(report(3, null), report(3, 80)), 'revise', 'unknown usage shows no improvement');
	t.equal(await decide(report(2, 100), report(3, 100), {acceptance: {require_all_pass: true}}), 'reject', 'require_all_pass is applied');
	t.equal(await decide(report(3, 100), report(4, 100, 'sha256:other')), 'reject', 'reports of different plans');
	t.equal(await decide(report(3, 100), report(4, 100, 'sha256:plan', [...ids].reverse())), 'reject', 'reports of different task orders');
});

t.test('a task the sample does not know is an error response with a non-zero status', async t => {
	const unknown = await call('setup', {task: {id: 'other', prompt: 'p'}, workspace: '/nonexistent'});
	t.equal(unknown.status, 1);
	t.same(unknown.response.error?.code, 'unknown_task');
});
