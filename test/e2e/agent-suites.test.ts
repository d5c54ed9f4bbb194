import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {exampleAgent, expectSuite, freezeSuite, runSide} from './agent-suite.js';

checkNoLeaks(t);

/*
 * The real agent CLIs of examples/agents/, pinned and installed in harness-lab's store, run the built-in suite through
 * `hlab eval --agent`, offline: the scripted provider plays each task's reference on the agent's own tools, each task's
 * metering proxy counts, the graders judge the workspaces. Codex (the Responses API) is in codex-suite.test.ts.
 */
for (const id of ['pi', 'qwen-code', 'opencode'] as const) {
	const agent = await exampleAgent(id);
	t.test(`${id} runs the built-in suite offline against the scripted provider, graded independently`, {skip: agent.skip}, async t => {
		const {dir, plan} = await freezeSuite(t);
		expectSuite(t, agent, await runSide(t, plan, agent, join(dir, id)));
	});
}

const pi = await exampleAgent('pi');

t.test('under --sandbox pi runs the same suite contained: its package readable under the hidden home, no network but its proxy', {skip: pi.skip}, async t => {
	const {dir, plan} = await freezeSuite(t, {sandbox: true});
	const report = await runSide(t, plan, pi, join(dir, 'pi-sandboxed'));
	expectSuite(t, pi, report);
	t.equal(report.integrity.label, 'contained', 'the attempt is labelled contained');
});
