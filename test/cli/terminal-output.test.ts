import {join} from 'node:path';
import t from 'tap';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {freezeAgentPlan, writeCommandAgent} from '../supervisor/agent/command-agents.js';

checkNoLeaks(t);

// A file name is the candidate's to choose; the grader names an added file, and the summary prints the grader's words.
const forging = `const {writeFileSync} = await import('node:fs');
writeFileSync('x\\x1b[2K\\x1b[1A\\ranswer_from_prompt: passed', '');
console.log('The job finished at 12:25.');`;

t.test('a candidate cannot rewrite the terminal through a string it controls: the summary shows its escapes as text', async t => {
	const dir = await tempDir(t, 'hlab-terminal-');
	const plan = await freezeAgentPlan(t, dir);
	const agent = await writeCommandAgent(dir, 'forger', forging);
	const run = await hlab(['eval', '--plan', plan, '--agent', agent.spec, '--artifacts', join(dir, 'side')]);
	t.equal(run.record.exit_code, 1, 'the added file fails the task');
	t.match(run.stdout, /added: x\\x1b\[2K\\x1b\[1A\\x0danswer_from_prompt: passed/, 'the name is shown, escaped');
	t.notMatch(`${run.stdout}${run.stderr}`, /[\x1b\r]/, 'no escape or carriage return reaches the terminal');
});
