import {Command} from 'commander';
import {builtinTasks} from '../tasks/index.js';
import {agentRunSummary, runOneTask} from '../supervisor/run-one/index.js';
import {failedExit, okExit} from './exit-codes.js';
import {positiveDuration} from './parse-units.js';
import {addProviderOptions, readProviderFlags, type ProviderFlags} from './provider-flags.js';
import {absolutePath} from './path-option.js';

interface AgentFlags extends ProviderFlags {
	task: string;
	workspace: string;
	candidate?: string;
	gradeTimeout: string;
	stateDir?: string;
	json?: boolean;
}

export function registerAgent(program: Command): void {
	const command = program
		.command('agent')
		.description('run one built-in task with the agent engine outside an experiment, then grade the workspace independently')
		.requiredOption('--task <id>', `the task (${builtinTasks.map(task => task.id).join(', ')})`)
		.requiredOption('--workspace <dir>', 'the task workspace: set up from the task\'s files when it does not exist; an existing one must be empty', absolutePath)
		.option('--candidate <file>', 'a single-file candidate plugin (TypeScript) to load', absolutePath);
	addProviderOptions(command)
		.option('--grade-timeout <duration>', 'the grader\'s deadline', '1m')
		.option('--state-dir <dir>', 'where journal.jsonl and messages.jsonl go (default: a new temporary directory)', absolutePath)
		.option('--json', 'print the result as JSON')
		.action(async (flags: AgentFlags) => runAgentCommand(flags));
}

async function runAgentCommand(flags: AgentFlags): Promise<void> {
	const choice = readProviderFlags(flags);
	const gradeTimeoutMs = positiveDuration(flags.gradeTimeout, '--grade-timeout');
	const interrupt = new AbortController();
	const onSignal = (): void => interrupt.abort();
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		const run = await runOneTask({
			taskId: flags.task, workspace: flags.workspace, stateDir: flags.stateDir ?? null, candidatePath: flags.candidate ?? null,
			...choice, gradeTimeoutMs, signal: interrupt.signal,
		});
		process.stdout.write(flags.json ? `${JSON.stringify(run, null, 2)}\n` : agentRunSummary(run));
		process.exitCode = run.grade.passed ? okExit : failedExit;
	} finally {
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
	}
}
