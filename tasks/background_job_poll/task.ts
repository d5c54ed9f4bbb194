import {createHash} from 'node:crypto';
import {readFile} from 'node:fs/promises';
import {isDeepStrictEqual} from 'node:util';
import {defineTask, taskFile} from '../define-task.js';
import {GradeChecks} from '../grading/grade-checks.js';
import {changedFiles, readWorkspaceJson, readWorkspaceText} from '../grading/workspace-files.js';
import {reference} from './reference.js';

const id = 'background_job_poll';

/** What the indexer must produce, computed by the grader from the original records (not by running the job). */
export function expectedIndex(records: string): {indexed: number; rejected: number; digest: string} {
	const ids: string[] = [];
	let rejected = 0;
	for (const line of records.split('\n').filter(text => text.trim() !== '')) {
		let record: {id?: unknown; email?: unknown};
		try {
			record = JSON.parse(line) as typeof record;
		} catch {
			rejected += 1;
			continue;
		}
		if (typeof record.id === 'string' && /^c\d{3}$/.test(record.id) && typeof record.email === 'string' && record.email.includes('@')) ids.push(record.id);
		else rejected += 1;
	}
	return {indexed: ids.length, rejected, digest: createHash('sha256').update(ids.sort().join('\n')).digest('hex').slice(0, 16)};
}

export const backgroundJobPoll = defineTask({
	id,
	title: 'Run a slow indexer in the background and report its result',
	prompt: [
		'Build the customer index: start `node tools/build-index.js` as a background job (it takes a few seconds) and wait until it has written out/index.json.',
		'Then write summary.txt containing exactly one line, `indexed=<indexed> rejected=<rejected> digest=<digest>`, with the values from out/index.json.',
		'Do not change the records or the indexer.',
	].join('\n'),
	tools: ['node'],
	reference,
	async grade(workspace) {
		const checks = new GradeChecks();
		const edited = await changedFiles(workspace, taskFile(id, ''), ['data/records.jsonl', 'tools/build-index.js']);
		checks.check('the records and the indexer are unchanged', edited.length === 0, edited.length ? edited.join('; ') : null);
		const expected = expectedIndex(await readFile(taskFile(id, 'data/records.jsonl'), 'utf8'));
		const index = await readWorkspaceJson(workspace, 'out/index.json');
		checks.check('the indexer wrote out/index.json', index.ok && isDeepStrictEqual(index.value, expected), index.ok ? `found ${JSON.stringify(index.value)}` : index.problem);
		const summary = await readWorkspaceText(workspace, 'summary.txt');
		const line = `indexed=${expected.indexed} rejected=${expected.rejected} digest=${expected.digest}`;
		checks.check('summary.txt reports the index', summary.ok && summary.text.trim() === line, summary.ok ? `expected "${line}", found "${summary.text.trim().slice(0, 200)}"` : summary.problem);
		return checks.grade();
	},
});
