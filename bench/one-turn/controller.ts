// A bench-only experiment controller: serves N one-turn tasks (argv[2] names its pinned config file).
import {readFileSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {dispatchExperimentController, type ExperimentController} from '../../sdk/index.js';
import type {OneTurnConfig} from './config.js';

const config = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as OneTurnConfig;
const ids = Array.from({length: config.count}, (_, index) => `one-turn-${String(index + 1).padStart(4, '0')}`);

/** Setup writes a marker; the grader passes when the workspace still holds it (a real, if trivial, check of the workspace). */
const controller: ExperimentController = {
	tasks: () => ({tasks: ids.map(id => ({id, prompt: config.prompt}))}),
	schedule: ({task_ids}) => ({order: [...task_ids], concurrency: config.concurrency}),
	async setup({task, workspace}) {
		await writeFile(join(workspace, 'task.txt'), task.id);
		return {details: 'wrote task.txt'};
	},
	async score({task, workspace}) {
		const text = await readFile(join(workspace, 'task.txt'), 'utf8').catch(() => null);
		const passed = text === task.id;
		return {passed, score: passed ? 1 : 0, details: passed ? 'task.txt intact' : 'task.txt missing or changed'};
	},
	accept: () => ({decision: 'revise', reason: 'the bench controller does not judge candidates'}),
};

await dispatchExperimentController(controller);
