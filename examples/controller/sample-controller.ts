import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {ControllerError, type AcceptParams, type AcceptResult, type ControllerTask, type ExperimentController, type ReportSummary, type ScoreParams, type ScoreResult, type SetupParams} from 'hlab/sdk';

/** A tiny task source; the answer keys stay here, never in a task a candidate sees. */
const sampleTasks: Array<ControllerTask & {expected: Record<string, string>}> = [
	{
		id: 'greeting',
		prompt: 'Create the file greeting.txt containing exactly one line: Hello, harness-lab!',
		expected: {'greeting.txt': 'Hello, harness-lab!\n'},
	},
	{
		id: 'shout',
		prompt: 'words.txt has one word per line. Write shout.txt with the same words in the same order, each in upper case, one per line.',
		files: {'words.txt': 'alpha\nbravo\ncharlie\n'},
		expected: {'shout.txt': 'ALPHA\nBRAVO\nCHARLIE\n'},
	},
	{
		id: 'reverse',
		prompt: 'list.txt has one item per line. Write reversed.txt with the same lines in reverse order.',
		files: {'list.txt': 'one\ntwo\nthree\nfour\n'},
		expected: {'reversed.txt': 'four\nthree\ntwo\none\n'},
	},
	{
		id: 'count',
		prompt: 'Count the lines of poem.txt and write that number alone on one line to count.txt.',
		files: {'poem.txt': 'The fog comes\non little cat feet.\nIt sits looking\nover harbor and city\non silent haunches\n'},
		expected: {'count.txt': '5\n'},
	},
];

function known(task: ControllerTask): (typeof sampleTasks)[number] {
	const found = sampleTasks.find(candidate => candidate.id === task.id);
	if (found === undefined) throw new ControllerError('unknown_task', `task ${task.id} is not one of this controller's tasks`);
	return found;
}

/** Lines of a text file, ignoring Windows line ends and one missing final newline. */
function lines(text: string): string[] {
	const normal = text.replaceAll('\r\n', '\n');
	return (normal.endsWith('\n') ? normal.slice(0, -1) : normal).split('\n');
}

/**
 * The deliberately simple grader: compares the expected files line by line with what is in the
 * workspace. The execution's messages and result are claims, so it never reads them.
 */
async function score({task, workspace}: ScoreParams): Promise<ScoreResult> {
	let matched = 0;
	let compared = 0;
	let passed = true;
	const notes: string[] = [];
	for (const [file, want] of Object.entries(known(task).expected)) {
		const wanted = lines(want);
		let got: string[];
		try {
			got = lines(await readFile(join(workspace, file), 'utf8'));
		} catch {
			passed = false;
			compared += wanted.length;
			notes.push(`${file} is missing`);
			continue;
		}
		const same = wanted.filter((line, index) => got[index] === line).length;
		const exact = same === wanted.length && got.length === wanted.length;
		passed &&= exact;
		matched += same;
		// Extra lines count against the score as much as missing ones.
		compared += Math.max(wanted.length, got.length);
		notes.push(exact ? `${file} matches` : `${file}: ${same} of ${wanted.length} expected lines match, ${got.length} lines found`);
	}
	return {passed, score: compared === 0 ? 0 : matched / compared, details: notes.join('; ')};
}

async function setup({task, workspace}: SetupParams): Promise<{details: string}> {
	known(task);
	const files = Object.entries(task.files ?? {});
	for (const [file, content] of files) {
		await mkdir(dirname(join(workspace, file)), {recursive: true});
		await writeFile(join(workspace, file), content);
	}
	return {details: `wrote ${files.length} starting file(s)`};
}

type Improvement = 'tokens' | 'turns' | 'quality';

/** Accepts a candidate that passes more tasks, or as many with a measured improvement. */
function accept({baseline, candidate, policy}: AcceptParams): AcceptResult {
	const acceptance = (policy['acceptance'] ?? {}) as {require_all_pass?: boolean; improvement?: Improvement};
	if (baseline.plan_digest !== candidate.plan_digest) return {decision: 'reject', reason: 'the two reports come from different plans'};
	const order = (report: ReportSummary): string => report.tasks.map(task => task.id).join('\n');
	if (order(baseline) !== order(candidate)) return {decision: 'reject', reason: 'the two reports do not cover the same tasks in the same order'};
	const [before, after] = [baseline.totals, candidate.totals];
	if (acceptance.require_all_pass === true && after.passed < after.tasks) return {decision: 'reject', reason: `the policy requires every task to pass; ${after.failed} failed`};
	if (after.passed < before.passed) return {decision: 'reject', reason: `the candidate passes ${after.passed} tasks, the baseline ${before.passed}`};
	if (after.passed > before.passed) return {decision: 'accept', reason: `the candidate passes ${after.passed} tasks, the baseline ${before.passed}`};
	const improvement = acceptance.improvement ?? 'tokens';
	if (improvement === 'quality') return {decision: 'revise', reason: 'the candidate passes as many tasks as the baseline, no more'};
	const measure = improvement === 'turns' ? 'turns' : 'total_tokens';
	const [was, now] = [before[measure], after[measure]];
	if (was === null || now === null) return {decision: 'revise', reason: `${measure} is unknown for one side, so no improvement can be shown`};
	if (now < was) return {decision: 'accept', reason: `as many tasks pass with ${now} ${measure} instead of ${was}`};
	return {decision: 'revise', reason: `as many tasks pass, but ${measure} did not go down (${was} → ${now})`};
}

export const sampleController: ExperimentController = {
	tasks: () => ({tasks: sampleTasks.map(({expected: _answers, ...task}) => task)}),
	schedule: ({task_ids}) => ({order: [...task_ids], concurrency: Math.min(2, task_ids.length)}),
	setup,
	score,
	accept,
};
