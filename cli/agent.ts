import {Command} from 'commander';
import {builtinTasks} from '../tasks/index.js';
import type {SubjectChoice} from '../supervisor/run-one/index.js';
import {UsageError} from '../supervisor/input-error.js';
import type {PlanProvider} from '../supervisor/plan/plan-schema.js';
import {failedExit, okExit} from './exit-codes.js';
import {positiveDuration} from './parse-units.js';
import {addProviderOptions, readProviderFlags, type ProviderFlags} from './provider-flags.js';
import {absolutePath, outputPath} from './path-option.js';
import {listenForStop, type StopWords} from './stop-signals.js';

interface AgentFlags extends ProviderFlags {
	task?: string;
	cartridge?: string;
	case?: string;
	responses?: string;
	workspace: string;
	candidate?: string;
	gradeTimeout: string;
	stateDir?: string;
	json?: boolean;
}

export function registerAgent(program: Command): void {
	const command = program
		.command('agent')
		.description('run one built-in task (or one cartridge case) with the agent engine outside an experiment, then grade the workspace independently')
		.option('--task <id>', `the task (${builtinTasks.map(task => task.id).join(', ')})`)
		.option('--cartridge <dir>', 'instead of --task: run a case of this cartridge with its harness and tools, judged by its graders', absolutePath)
		.option('--case <id>', 'with --cartridge: the case to run')
		.option('--responses <file>', 'with --cartridge and --provider scripted: the response script that plays the case', absolutePath)
		.requiredOption('--workspace <dir>', 'the task workspace: set up from the task\'s files when it does not exist; an existing one must be empty', outputPath)
		.option('--candidate <file>', 'a single-file candidate plugin (TypeScript) to load', absolutePath);
	addProviderOptions(command)
		.option('--grade-timeout <duration>', 'the grader\'s deadline', '1m')
		.option('--out, --state-dir <dir>', 'where journal.jsonl and messages.jsonl go (default: a new temporary directory; --state-dir: alias of --out)', outputPath)
		.option('--json', 'print the result as JSON')
		.action(async (flags: AgentFlags, self: Command) => runAgentCommand(flags, self));
}

async function runAgentCommand(flags: AgentFlags, self: Command): Promise<void> {
	const choice = readProviderFlags(flags);
	const subject = subjectOf(flags, choice.provider);
	// A cartridge's case runs under its contract's limits unless the flags say otherwise.
	const given = (name: string): boolean => !('cartridge' in subject) || self.getOptionValueSource(name) !== 'default';
	const gradeDeadlineMs = positiveDuration(flags.gradeTimeout, '--grade-timeout');
	const interrupt = new AbortController();
	const stopListening = listenForStop({words: agentStopWords, stop: interrupt});
	try {
		// The engine is loaded when the task runs, not by the command's --help.
		const {agentRunSummary, runOneTask} = await import('../supervisor/run-one/index.js');
		const run = await runOneTask({
			subject, workspace: flags.workspace, stateDir: flags.stateDir ?? null, candidatePath: flags.candidate ?? null,
			provider: choice.provider, maxSteps: given('maxSteps') ? choice.maxSteps : null, deadlineMs: given('timeout') ? choice.deadlineMs : null,
			gradeDeadlineMs, signal: interrupt.signal,
		});
		process.stdout.write(flags.json ? `${JSON.stringify(run, null, 2)}\n` : agentRunSummary(run));
		process.exitCode = run.grade.passed ? okExit : failedExit;
	} finally {
		stopListening();
	}
}

function subjectOf(flags: AgentFlags, provider: PlanProvider): SubjectChoice {
	if ((flags.task === undefined) === (flags.cartridge === undefined)) throw new UsageError('give --task ID or --cartridge DIR --case ID');
	if (flags.task !== undefined) {
		if (flags.case !== undefined || flags.responses !== undefined) throw new UsageError('--case and --responses apply only with --cartridge');
		return {task: flags.task};
	}
	if (flags.case === undefined) throw new UsageError('--cartridge needs --case ID');
	return {cartridge: flags.cartridge!, caseId: flags.case, responsesPath: flags.responses ?? null, provider};
}

const agentStopWords: StopWords = {
	first: 'the task ends, is graded and its result printed',
	faster: 'every process of the task is killed now; the result is still printed',
	now: 'no result; the workspace and --state-dir keep what the task left',
};
