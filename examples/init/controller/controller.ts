/**
 * An experiment controller (harness-lab's docs/controllers.md): it owns the tasks, their setup, the scoring of
 * each workspace and the acceptance of a candidate, and speaks protocol v1 on stdin/stdout through the SDK.
 * `hlab controller build --entry controller.ts --out build` bundles it and pins it in build/controller.json.
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {ControllerError, dispatchExperimentController, type AcceptParams, type AcceptResult, type ControllerTask, type ScoreParams, type ScoreResult, type SetupParams} from 'hlab/sdk';

/** The tasks; the answer keys stay here, never in a task a candidate sees. */
const tasks: Array<ControllerTask & {expected: Record<string, string>}> = [
	{
		id: 'greeting',
		prompt: 'Create the file greeting.txt containing exactly one line: Hello, controller!',
		expected: {'greeting.txt': 'Hello, controller!\n'},
	},
	{
		id: 'upper',
		prompt: 'name.txt holds one word. Write upper.txt with that word in upper case, on one line.',
		files: {'name.txt': 'harness\n'},
		expected: {'upper.txt': 'HARNESS\n'},
	},
];

function known(task: ControllerTask): (typeof tasks)[number] {
	const found = tasks.find(candidate => candidate.id === task.id);
	if (found === undefined) throw new ControllerError('unknown_task', `task ${task.id} is not one of this controller's tasks`);
	return found;
}

async function setup({task, workspace}: SetupParams): Promise<{details: string}> {
	const files = Object.entries(known(task).files ?? {});
	for (const [file, content] of files) {
		await mkdir(dirname(join(workspace, file)), {recursive: true});
		await writeFile(join(workspace, file), content);
	}
	return {details: `wrote ${files.length} starting file(s)`};
}

/** Grades the workspace alone: the execution's messages and result are the agent's claims, so it never reads them. */
async function score({task, workspace}: ScoreParams): Promise<ScoreResult> {
	const misses: string[] = [];
	for (const [file, want] of Object.entries(known(task).expected)) {
		const got = await readFile(join(workspace, file), 'utf8').catch(() => null);
		if (got?.trimEnd() !== want.trimEnd()) misses.push(got === null ? `${file} is missing` : `${file} differs`);
	}
	return {passed: misses.length === 0, score: misses.length === 0 ? 1 : 0, details: misses.length === 0 ? 'every expected file matches' : misses.join('; ')};
}

/** Accepts a candidate that passes more tasks, or as many with fewer tokens; otherwise asks for a revision or rejects. */
function accept({baseline, candidate}: AcceptParams): AcceptResult {
	if (baseline.plan_digest !== candidate.plan_digest) return {decision: 'reject', reason: 'the two reports come from different plans'};
	const [before, after] = [baseline.totals, candidate.totals];
	if (after.passed < before.passed) return {decision: 'reject', reason: `the candidate passes ${after.passed} tasks, the baseline ${before.passed}`};
	if (after.passed > before.passed) return {decision: 'accept', reason: `the candidate passes ${after.passed} tasks, the baseline ${before.passed}`};
	const [was, now] = [before.total_tokens, after.total_tokens];
	if (was === null || now === null) return {decision: 'revise', reason: 'total_tokens is unknown for one side, so no improvement can be shown'};
	if (now < was) return {decision: 'accept', reason: `as many tasks pass with ${now} total_tokens instead of ${was}`};
	return {decision: 'revise', reason: `as many tasks pass, but total_tokens did not go down (${was} → ${now})`};
}

await dispatchExperimentController({
	tasks: () => ({tasks: tasks.map(({expected: _answers, ...task}) => task)}),
	schedule: ({task_ids}) => ({order: [...task_ids], concurrency: 1}),
	setup,
	score,
	accept,
});
