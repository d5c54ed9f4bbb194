import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {exampleAgent, expectSuite, freezeSuite, runSide} from './agent-suite.js';

checkNoLeaks(t);
// Longer than the suite's 300 s per file: 28 real agent tasks and 7 sandboxed ones took 110–200 s in the clean clones
// of bench/README.md, and past 300 s in one on a day this machine's cores ran at about half their speed.
t.setTimeout(900_000);

/*
 * The real agent CLIs of examples/agents/, pinned and installed in harness-lab's store, run the built-in suite through
 * `hlab eval --agent`, offline: the scripted provider plays each task's reference on the agent's own tools, each task's
 * metering proxy counts, the graders judge the workspaces. Codex (the Responses API) is in codex-suite.test.ts.
 */
const agents = await Promise.all((['pi', 'qwen-code', 'opencode'] as const).map(exampleAgent));
// One plan serves the three agents (each runs it into a folder of its own): a freeze is a whole hlab process, and the three were the same plan.
const suite = agents.some(agent => agent.skip === false) ? await freezeSuite(t) : null;

for (const agent of agents) {
	t.test(`${agent.id} runs the built-in suite offline against the scripted provider, graded independently`, {skip: agent.skip}, async t => {
		expectSuite(t, agent, await runSide(t, suite!.plan, agent, join(suite!.dir, agent.id)));
	});
}

const pi = await exampleAgent('pi');

t.test('under --sandbox pi runs the same suite contained: its package readable under the hidden home, no network but its proxy', {skip: pi.skip}, async t => {
	const {dir, plan} = await freezeSuite(t, {sandbox: true});
	const report = await runSide(t, plan, pi, join(dir, 'pi-sandboxed'));
	expectSuite(t, pi, report);
	t.equal(report.integrity.label, 'contained', 'the attempt is labelled contained');
});
