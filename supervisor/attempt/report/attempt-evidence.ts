import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {AttemptRecord} from '../stages/attempt-record.js';
import {verifyLedger, type VerifiedLedger} from '../task-core/ledger-chain.js';

/** `attempt.json` of an evidence directory, or null when it is missing or not a record. */
export async function readAttemptRecord(dir: string): Promise<AttemptRecord | null> {
	try {
		return AttemptRecord.parse(JSON.parse(await readFile(join(dir, 'attempt.json'), 'utf8')));
	} catch {
		// An attempt killed before attempt.json was written has no processes of its own yet.
		return null;
	}
}

/** An attempt's ledger as its seal lets it be trusted; without attempt.json, under the attempt id its first record names. */
export async function verifyAttemptLedger(dir: string, attempt: AttemptRecord | null): Promise<VerifiedLedger> {
	return verifyLedger(dir, attempt?.attempt_id ?? await attemptIdOfLedger(dir), attempt?.seal != null);
}

async function attemptIdOfLedger(dir: string): Promise<string> {
	const first = (await readFile(join(dir, 'ledger.jsonl'), 'utf8').catch(() => '')).split('\n', 1)[0] ?? '';
	try {
		const id = (JSON.parse(first) as {attempt_id?: unknown}).attempt_id;
		return typeof id === 'string' ? id : 'unknown';
	} catch {
		return 'unknown';
	}
}
