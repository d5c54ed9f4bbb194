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

const agents: {agent: AgentName; api: 'chat' | 'responses'; title: boolean}[] = [
	{agent: 'opencode', api: 'chat', title: true},
	{agent: 'qwen-code', api: 'chat', title: false},
	{agent: 'pi', api: 'chat', title: false},
	{agent: 'codex', api: 'responses', title: false},
	{agent: 'codex-shell', api: 'responses', title: false},
];

for (const {agent, api, title} of agents) {
	t.test(`${agent}: every built-in task on its own tools`, async t => {
		const passed: string[] = [];
		for (const task of builtinTasks) {
			const workspace = join(await realpath(await tempDir(t, `hlab-${agent}-`)), 'ws');
			await task.setup(workspace);
			const tools = new AgentTools(agent, workspace);
			const body = await openingRequest(agent, workspace, task.prompt);
			let run: AgentRun;
			try {
				run = api === 'chat' ? await driveChat(client, body, tools, title) : await driveResponses(client, body, tools);
			} finally {
				tools.shell.endAll();
			}
			const grade = await task.grade(workspace, {deadlineMs: 60_000, finalText: run.finalText});
			t.ok(grade.passed, `${task.id}: ${grade.details.replace(/\n/g, '; ')}`);
			if (grade.passed) passed.push(task.id);
			const offered = new Set((body.tools as {name?: string; function?: {name: string}}[]).map(tool => tool.function?.name ?? tool.name));
			t.ok(run.calls.every(call => offered.has(call.name)), `${task.id}: every call is one of the agent's own tools`);
			if (title) t.ok(run.asides.length === 1 && run.asides[0]!.length > 0, `${task.id}: the title request got a text and used no step`);
		}
		t.ok(passed.length >= 6, `${passed.length} of ${builtinTasks.length} tasks pass`);
	});
}
