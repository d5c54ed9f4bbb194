import {realpath} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import OpenAI from 'openai';
import {builtinTasks} from '../../tasks/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {scriptedServer} from '../engine/engine-run.js';
import {AgentTools, type AgentName} from './agents/agent-tools.js';
import {driveChat, driveResponses, openingRequest, type AgentRun} from './agents/drive-agent.js';

// Every built-in task, played by the scripted provider on each agent's own tools, executed for real in a workspace
// the way that agent executes them, then graded by the task's independent grader.
checkNoLeaks(t);
const server = await scriptedServer(t);
const client = new OpenAI({baseURL: server.url, apiKey: 'unused', maxRetries: 0});

// Each fixture with the agent that executes its calls; `title` is the agent's title request sent alongside.
// `uses` is every tool the suite's calls go to: the dedicated tools where they fit, the shell for the rest.
const toolSets: {fixture: string; agent: AgentName; api: 'chat' | 'responses'; title: string | null; uses: string[]}[] = [
	// Captured: its system prompt cut short, so no working directory is named and read/write (absolute paths) go through bash.
	{fixture: 'opencode', agent: 'opencode', api: 'chat', title: 'opencode-title', uses: ['bash']},
	// Hand-made with opencode's environment block: read and write with absolute paths.
	{fixture: 'opencode-env', agent: 'opencode', api: 'chat', title: null, uses: ['bash', 'read', 'write']},
	{fixture: 'qwen-code', agent: 'qwen-code', api: 'chat', title: null, uses: ['read_file', 'run_shell_command', 'write_file']},
	{fixture: 'pi', agent: 'pi', api: 'chat', title: null, uses: ['bash', 'read', 'write']},
	{fixture: 'codex', agent: 'codex', api: 'responses', title: null, uses: ['exec_command']},
	{fixture: 'codex-shell', agent: 'codex-shell', api: 'responses', title: null, uses: ['shell']},
];

for (const {fixture, agent, api, title, uses} of toolSets) {
	t.test(`${fixture}: every built-in task on its own tools`, async t => {
		const passed: string[] = [];
		const used = new Set<string>();
		for (const task of builtinTasks) {
			const workspace = join(await realpath(await tempDir(t, `hlab-${agent}-`)), 'ws');
			await task.setup(workspace);
			const tools = new AgentTools(agent, workspace);
			const body = await openingRequest(fixture, workspace, task.prompt);
			const titleBody = title === null ? null : await openingRequest(title, workspace, task.prompt);
			let run: AgentRun;
			try {
				run = api === 'chat' ? await driveChat(client, body, tools, titleBody) : await driveResponses(client, body, tools);
			} finally {
				tools.shell.endAll();
			}
			const grade = await task.grade(workspace, {deadlineMs: 60_000, finalText: run.finalText});
			t.ok(grade.passed, `${task.id}: ${grade.details.replace(/\n/g, '; ')}`);
			if (grade.passed) passed.push(task.id);
			for (const call of run.calls) used.add(call.name);
			const offered = new Set((body.tools as {name?: string; function?: {name: string}}[]).map(tool => tool.function?.name ?? tool.name));
			t.ok(run.calls.every(call => offered.has(call.name)), `${task.id}: every call is one of the agent's own tools`);
			if (title !== null) t.ok(run.asides.length === 1 && run.asides[0]!.length > 0, `${task.id}: the title request got a text and used no step`);
		}
		t.ok(passed.length >= 6, `${passed.length} of ${builtinTasks.length} tasks pass`);
		t.same([...used].sort(), uses, `the calls went to ${uses.join(', ')}`);
	});
}
