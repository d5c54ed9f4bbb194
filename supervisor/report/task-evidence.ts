import {isAbsolute, relative, resolve} from 'node:path';
import {z} from 'zod';
import type {TaskResult} from '../attempt/report/report-schema.js';
import {JournalLine, journalLine} from './journal-lines.js';
import {readJsonl} from './read-jsonl.js';
import {TranscriptLine, transcriptLine} from './transcript-lines.js';

/** What a task left in its evidence folder for the page: the transcript, the journal, and whatever could not be read. */
export const TaskEvidence = z.object({
	messages: z.array(TranscriptLine),
	journal: z.array(JournalLine),
	problems: z.array(z.string()),
});
export type TaskEvidence = z.infer<typeof TaskEvidence>;

/** Reads the messages and journal a task's result cites; a missing or unreadable file is a problem shown on the page. */
export async function loadTaskEvidence(evidenceDir: string, task: TaskResult): Promise<TaskEvidence> {
	const problems: string[] = [];
	const messages = await readCited(evidenceDir, task, 'messages', problems, transcriptLine);
	const journal = await readCited(evidenceDir, task, 'journal', problems, journalLine);
	return {messages, journal, problems};
}

async function readCited<T>(dir: string, task: TaskResult, kind: string, problems: string[], line: (record: unknown) => T | null): Promise<T[]> {
	const rel = task.evidence[kind];
	if (rel === undefined) {
		// A task that never reached the model has no journal or transcript.
		problems.push(`no ${kind} recorded`);
		return [];
	}
	const path = resolve(dir, rel);
	if (isAbsolute(rel) || relative(dir, path).startsWith('..')) {
		problems.push(`${kind} cited outside the evidence directory (${rel})`);
		return [];
	}
	try {
		const {records, problems: torn} = await readJsonl(path);
		problems.push(...torn.map(problem => `${rel}: ${problem}`));
		const lines = records.map(line);
		const unreadable = lines.filter(item => item === null).length;
		if (unreadable > 0) problems.push(`${rel}: ${unreadable} records not in the expected shape`);
		return lines.filter(item => item !== null);
	} catch (error) {
		problems.push(`${rel} cannot be read: ${(error as Error).message}`);
		return [];
	}
}
