import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {exampleAgent, expectSuite, freezeSuite, runSide} from './agent-suite.js';

checkNoLeaks(t);

const agent = await exampleAgent('codex');

t.test('Codex runs the built-in suite offline through the Responses API, graded independently', {skip: agent.skip}, async t => {
	const {dir, plan} = await freezeSuite(t);
	expectSuite(t, agent, await runSide(t, plan, agent, join(dir, 'codex')));
});
