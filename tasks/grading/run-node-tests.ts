import {copyFileSync, mkdtempSync, rmSync} from 'node:fs';
import {homedir, tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {distPath, installRoot, suiteChunkPaths} from '../../files/install-root.js';
import type {ProcessRecord} from '../../process/index.js';
import type {GradeOptions} from '../task-definition.js';
import {copyWorkspace} from './copy-workspace.js';
import {reportProblem} from './node-test-report.js';

export interface TestRun {
	passed: boolean;
	/** Why it did not pass, short enough for grade details. */
	problem: string | null;
}

/** The task's tests: the files `node --test` runs and the top-level test names they must report, each passed. */
export interface NodeTests {
	files: string[];
	names: string[];
}

const outputLimit = 1024 * 1024;
// The compiled file, not a bundle's: it imports nothing and is copied alone, out of the hidden dist/tasks/.
const reporterSource = distPath('tasks/grading/node-test-reporter.js');

/**
 * The grader's own run of the task's tests. The workspace's code is the agent's, so it runs on a read-only copy (see
 * copy-workspace.ts), in its own process group under the grade's deadline and byte limits, under bubblewrap where it
 * is usable: no network, the install's tasks and graders, home, the workspace itself and the attempt's hidden paths
 * absent. The verdict is the runner's structured report (node-test-report.ts), never its exit code or what it prints.
 */
export async function runNodeTests(workspace: string, tests: NodeTests, options: GradeOptions): Promise<TestRun> {
	// Loaded here, not with the task list: a process that only reads the tasks (the scripted provider's) skips execa's 110 modules.
	const {checkSandbox, publishedMemoryLimit, runInGroup, sandboxFor} = await import('../../process/index.js');
	const hidden = checkSandbox().ok ? hiddenFromGrader([workspace, ...(options.hidden ?? []), ...(sandboxFor('/')?.hidden ?? [])]) : null;
	const scratch = scratchOutside(hidden ?? []);
	try {
		const copy = join(scratch, 'workspace');
		const copied = copyWorkspace(workspace, copy);
		if (!copied.ok) return {passed: false, problem: copied.reason};
		const reporter = join(scratch, 'reporter.mjs');
		copyFileSync(reporterSource, reporter);
		const run = await runInGroup({
			argv: [process.execPath, '--test', `--test-reporter=${reporter}`, '--test-reporter-destination=stdout', ...tests.files],
			cwd: copy,
			// Nothing of the supervisor's environment (a provider key, its markers) reaches the agent's code.
			env: {PATH: process.env.PATH, HOME: copy, LANG: process.env.LANG},
			extendEnv: false,
			deadlineMs: options.deadlineMs,
			stdoutLimit: outputLimit,
			stderrLimit: outputLimit,
			// The agent's code, run here: under the task's memory limit as its own commands were (none outside an attempt).
			memoryLimitBytes: publishedMemoryLimit(),
			signal: options.signal,
			// Where bwrap is unusable: its own process group on the copy, nothing more.
			sandbox: hidden === null ? undefined : {writable: [], readable: [scratch], hidden, network: false},
		});
		const problem = runProblem(run.record, run.stdout?.toString('utf8') ?? '', run.stderr?.toString('utf8') ?? '', tests.names);
		const leftOut = copied.leftOut.length > 0 ? ` (left out of the copy: ${copied.leftOut.slice(0, 3).join(', ')})` : '';
		return {passed: problem === null, problem: problem === null ? null : `${problem}${leftOut}`};
	} finally {
		rmSync(scratch, {recursive: true, force: true});
	}
}

/** What the run's own sandbox hides: the install's tasks and graders (compiled and bundled), home, and `hidden` (the workspace, the attempt's own hidden paths). */
function hiddenFromGrader(hidden: string[]): string[] {
	const home = [homedir(), process.env.HOME].filter((dir): dir is string => dir !== undefined && dir !== '' && dir !== '/');
	return outermost([join(installRoot, 'tasks'), distPath('tasks'), ...suiteChunkPaths(), ...home, ...hidden, '/etc/shadow', '/etc/gshadow']);
}

/** The scratch folder, outside every hidden path: TMPDIR may lie inside one (the attempt's runtime root, home), which would hide the copy. */
function scratchOutside(hidden: string[]): string {
	const inside = (dir: string): boolean => hidden.some(path => dir === path || dir.startsWith(`${path}/`));
	const parent = [resolve(tmpdir()), '/tmp', '/var/tmp'].find(dir => !inside(dir)) ?? '/tmp';
	return mkdtempSync(join(parent, 'hlab-grade-'));
}

/** The paths not inside another one: bubblewrap cannot make a hidden folder read-only once a folder around it is hidden. */
function outermost(paths: string[]): string[] {
	const unique = [...new Set(paths.map(path => resolve(path)))];
	return unique.filter(path => !unique.some(other => other !== path && (path.startsWith(`${other}/`) || other === '/')));
}

function runProblem(record: ProcessRecord, stdout: string, stderr: string, expected: string[]): string | null {
	if (record.failure === 'spawn') throw new Error(`the grader could not start node: ${record.failure_message}`);
	if (record.failure === 'aborted') throw new Error('grading was cancelled');
	if (record.survivors.length > 0) throw new Error(`processes survived the grader's test run: ${record.survivors.join(' ')}`);
	if (record.failure !== null) return record.failure_message;
	const reported = reportProblem(stdout, expected);
	const said = stderr.trim().split('\n')[0]?.slice(0, 200) ?? '';
	if (reported !== null) return record.exit_code !== 0 && stdout === '' && said !== '' ? `${reported}; the runner said: ${said}` : reported;
	if (record.exit_code !== 0) return `the runner exited with code ${record.exit_code}${said === '' ? '' : `: ${said}`}`;
	return null;
}
