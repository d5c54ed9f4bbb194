import {runInGroup, sandboxFor} from '../../process/index.js';
import type {GradeOptions} from '../task-definition.js';

export interface TestRun {
	passed: boolean;
	/** Why it did not pass, short enough for grade details. */
	problem: string | null;
}

const outputLimit = 1024 * 1024;

/**
 * The grader's own run of the task's tests: `node --test` on the named files in the workspace, in its own
 * process group under a deadline. It uses the Node that runs harness-lab, not whatever the workspace puts on PATH.
 * The tests import the agent's code, so under the attempt's sandbox they run in it as a tool command does.
 */
export async function runNodeTests(workspace: string, files: string[], options: GradeOptions): Promise<TestRun> {
	const run = await runInGroup({
		argv: [process.execPath, '--test', '--test-reporter=dot', ...files],
		cwd: workspace,
		env: {NODE_OPTIONS: undefined, NODE_TEST_CONTEXT: undefined, ...Object.fromEntries((options.secretEnv ?? []).map(name => [name, undefined]))},
		deadlineMs: options.timeoutMs,
		stdoutLimit: outputLimit,
		stderrLimit: outputLimit,
		signal: options.signal,
		sandbox: sandboxFor(workspace),
	});
	const {record} = run;
	if (record.failure === 'spawn') throw new Error(`the grader could not start node: ${record.failure_message}`);
	if (record.failure === 'aborted') throw new Error('grading was cancelled');
	if (record.survivors.length > 0) throw new Error(`processes survived the grader's test run: ${record.survivors.join(' ')}`);
	if (record.failure !== null) return {passed: false, problem: record.failure_message};
	if (record.exit_code === 0) return {passed: true, problem: null};
	const output = `${run.stdout?.toString('utf8') ?? ''}${run.stderr?.toString('utf8') ?? ''}`;
	const firstFailure = /✖ ([^\n]*)/.exec(output)?.[1] ?? output.trim().split('\n')[0] ?? '';
	return {passed: false, problem: `exit code ${record.exit_code}${firstFailure ? `: ${firstFailure.slice(0, 200)}` : ''}`};
}
