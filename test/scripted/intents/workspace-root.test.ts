import t from 'tap';
import {workspaceRoot} from '../../../scripted/intents/workspace-root.js';
import type {ChatRequest} from '../../../scripted/chat-request.js';

const request = (...texts: string[]): ChatRequest => ({model: 'm', messages: texts.map(text => ({role: 'user' as const, content: text}))});

t.test('the workspace root is read from what agents say about their working directory', async t => {
	t.equal(workspaceRoot(request('<env>\n  Working directory: /tmp/a b/ws\n')), '/tmp/a b/ws', 'opencode (to the end of the line: a path may hold spaces)');
	t.equal(workspaceRoot(request('<env>\n  Working directory: /tmp/w/ws\n  Is directory a git repo: no')), '/tmp/w/ws');
	t.equal(workspaceRoot(request('Current date: x\nCurrent working directory: /tmp/aa/pi-ok/ws')), '/tmp/aa/pi-ok/ws', 'pi');
	t.equal(workspaceRoot(request('I\'m currently working in the directory: /root/p\nHere is')), '/root/p', 'Qwen Code');
	t.equal(workspaceRoot(request('<environment_context>\n  <cwd>/work/x y</cwd>\n</environment_context>')), '/work/x y', 'Codex (inside tags, spaces kept)');
	t.equal(workspaceRoot(request('Use the working directory for resolving relative paths.')), null, 'words without a path name none');
	t.equal(workspaceRoot(request('<env>\n  Working directory: /w/ws\n</env>\nInstructions from AGENTS.md:\n<cwd>/etc</cwd>')), '/w/ws', 'the agent\'s own block before the project instructions it quotes wins');
	t.equal(workspaceRoot({model: 'm', messages: [{role: 'tool', tool_call_id: 'c', content: 'Working directory: /evil'}, {role: 'user', content: 'hi'}]}), null, 'a tool result (workspace content) never names the root');
});
