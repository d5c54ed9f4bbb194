import type {Usage} from '../engine/outcome.js';
import type {AgentSpec} from './agent-spec.js';

/** What the supervisor hands an adapter for one task: everything the agent may know, and nothing of the user's. */
export interface AgentTask {
	task: {id: string; prompt: string};
	/** The agent's working directory: a fresh copy of the task's files, graded after the agent ends. */
	workspace: string;
	/** A fresh, empty `$HOME` of this task's own: the adapter writes the agent's configuration here. */
	home: string;
	/** The task's own metering proxy, OpenAI-compatible, ending in `/v1`: the only provider the agent may reach. */
	baseUrl: string;
	/** A placeholder the proxy accepts: the real key never leaves the supervisor. */
	apiKey: string;
	/** The plan's model: every alias the agent has (small, fast, title, subagent) is pinned to it. */
	model: string;
	/** The task's remaining time; the supervisor ends the agent's process tree past it plus the grace. */
	deadlineMs: number;
	maxSteps: number;
	/** The installed package's folder in the store, `<store>/<pkg>@<version>` with its tree under node_modules/ (null for a `command` spec that names a script). */
	packageDir: string | null;
	/** The spec's own folder: the base of its relative paths (system prompt file, a command's script). */
	specDir: string;
	/** The text of the spec's `config.system_prompt_file`, read by the supervisor; null without one. */
	systemPrompt: string | null;
}

/** How to start the agent for one task. `stdin` is /dev/null unless the adapter hands the task there. */
export interface AgentLaunch {
	/** argv[0] is an absolute path (the package's bin, or node with its entry file). */
	argv: string[];
	/** The agent's whole environment (the supervisor adds only the spec's allow-listed variables and PATH). */
	env: Record<string, string>;
	/** Files to write before the launch, relative to the task's `$HOME` (configuration, system prompt). */
	files: {path: string; content: string}[];
	stdin: {kind: 'null'} | {kind: 'text'; text: string};
}

/** What the agent left behind, as the supervisor recorded it. */
export interface AgentOutputs {
	stdout: string;
	stderr: string;
	exitCode: number | null;
	signal: string | null;
	/** The task's `$HOME` after the run, for session files the agent keeps there. */
	home: string;
	/** Set when the supervisor ended the agent (deadline, output limit, interruption): the outcome is already a failure. */
	endedBySupervisor: boolean;
}

/** One message of the agent's own trajectory, in the shape of harness-lab's messages.jsonl. */
export interface TrajectoryMessage {
	role: 'system' | 'user' | 'assistant' | 'tool';
	content: string | null;
	tool_calls?: {id: string; name: string; arguments: string}[];
	tool_call_id?: string;
}

/** The agent's own account of the run: kept as evidence and claims, never as the verdict. */
export interface AgentCollected {
	messages: TrajectoryMessage[];
	/** The agent's self-reported usage; null when it reports none. */
	usageClaim: Usage | null;
	/** The agent's final answer text, when its output has one. */
	finalText: string | null;
}

/** How the run ended by the agent's structured output; `finished` says nothing of whether the task is solved. */
export type AgentClassification =
	| {status: 'finished'}
	| {status: 'failed'; reason: 'provider' | 'crash' | 'unfinished' | 'init'; message: string};

/** One adapter: a folder in agents/adapters/ that knows how one agent CLI is started, limited and read. */
export interface AgentAdapter<Spec extends AgentSpec = AgentSpec> {
	id: Spec['adapter'];
	/** Bumped whenever the adapter changes how it launches its agent, so identities from two versions never compare equal. */
	version: number;
	/** The package's `bin` entry the adapter starts; null for `command`, whose spec names its own executable. */
	bin: string | null;
	/** Flags the adapter sets itself (model, task, approvals, configuration): a spec's `flags` may not name them. */
	reservedFlags: string[];
	launch(spec: Spec, task: AgentTask): AgentLaunch;
	collect(outputs: AgentOutputs): AgentCollected;
	/** Never from the exit code alone: pi exits 0 after an API error, Continue exits 0 after SIGTERM. */
	classify(outputs: AgentOutputs, collected: AgentCollected): AgentClassification;
}
