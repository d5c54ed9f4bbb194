import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {AgentTaskRecord} from '../../agent/index.js';
import type {Usage} from '../../../engine/outcome.js';
import {writeJsonSync} from '../../../files/write-json.js';
import {AtifTrajectory} from './atif-schema.js';
import {buildTrajectory} from './build-trajectory.js';
import {readTaskRecords} from './task-records.js';

export const trajectoryFile = 'trajectory.json';

/** A trajectory the schema refused: a fault of the builder, never written. */
export class TrajectoryInvalid extends Error {}

/**
 * Writes `trajectory.json` into a task's evidence folder from the records beside it (messages.jsonl, journal.jsonl,
 * agent-task.json), validated first. Returns its name, or null when the task left no message to make one of.
 */
export function writeTaskTrajectory(taskDir: string, sessionId: string, usage: Usage | null, messagesText?: string, journalText?: string | null): string | null {
	const trajectory = taskTrajectory(taskDir, sessionId, usage, messagesText, journalText);
	if (trajectory === null) return null;
	// Atomic, not fsynced: it is derived from the records beside it, and can be written again from them (hlab export atif).
	writeJsonSync(join(taskDir, trajectoryFile), trajectory, {atomic: true});
	return trajectoryFile;
}

/** What `trajectory.json` holds, validated; null when the task left no message. For a writer that writes it itself (the task's export). */
export function taskTrajectory(taskDir: string, sessionId: string, usage: Usage | null, messagesText?: string, journalText?: string | null): AtifTrajectory | null {
	const messages = messagesText ?? readOrNull(join(taskDir, 'messages.jsonl'));
	if (messages === null) return null;
	const records = readTaskRecords(messages, journalText === undefined ? readOrNull(join(taskDir, 'journal.jsonl')) : journalText);
	if (records.messages.length === 0) return null;
	const trajectory = buildTrajectory({sessionId, records, agent: agentOf(taskDir), usage});
	const checked = AtifTrajectory.safeParse(trajectory);
	if (!checked.success) throw new TrajectoryInvalid(`the trajectory of ${sessionId} is not valid ATIF: ${checked.error.issues.map(issue => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
	return checked.data;
}

/** A third-party agent's identity, from its task record. */
function agentOf(taskDir: string): AgentTaskRecord['agent'] | null {
	const path = join(taskDir, 'agent-task.json');
	// Asked first: most tasks (every in-process one) have none, and a failed read costs an error with its stack.
	if (!existsSync(path)) return null;
	const text = readOrNull(path);
	if (text === null) return null;
	return AgentTaskRecord.safeParse(JSON.parse(text)).data?.agent ?? null;
}

function readOrNull(path: string): string | null {
	try {
		return readFileSync(path, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw error;
	}
}
