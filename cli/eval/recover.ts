import {UsageError} from '../../supervisor/input-error.js';
import {failedExit} from '../exit-codes.js';
import {absolutePath} from '../path-option.js';
import type {EvalMode} from './eval-mode.js';
import {printResult} from './print-result.js';

interface RecoverFlags {
	recover: string;
	queue?: string;
	redisPasswordFile?: string;
	json?: boolean;
}

/** `hlab eval --recover`: the report of an attempt that ended without one; its queue, if it had one, is withdrawn. */
export const recoverMode: EvalMode = {
	name: 'recover',
	addTrigger: command => command.option('--recover <dir>', 'rebuild the report of an attempt that ended without one', absolutePath),
	own: null,
	run: async (flags: RecoverFlags) => recover(flags),
};

async function recover(flags: RecoverFlags): Promise<number> {
	const {recoverAttempt, recoverySummary} = await import('../../supervisor/attempt/index.js');
	const {report, killed} = await recoverAttempt(flags.recover);
	// Loaded only here, not by every `hlab eval`: the queue's Redis client and job library are a fifth of a second of start-up.
	const {drainAttemptQueue, passwordVariable, readQueueRecord, takeQueueCredentials} = await import('../../supervisor/queue/index.js');
	const queued = await readQueueRecord(flags.recover);
	if (queued !== null) {
		const {redisPassword} = takeQueueCredentials({secretFile: null, passwordFile: flags.redisPasswordFile ?? null, insecure: false, needsSecret: false});
		const {jobs} = await drainAttemptQueue(queued, flags.queue ?? null, redisPassword).catch((error: Error) => {
			throw new UsageError(`the report was written, but the attempt's queue ${queued.queue} could not be removed (give --queue URL, and its password in ${passwordVariable} or --redis-password-file if it has one): ${error.message}`, 'queue_drain');
		});
		process.stderr.write(`hlab: the attempt's queue ${queued.queue} was withdrawn and removed (${jobs} job${jobs === 1 ? '' : 's'} waiting or running)\n`);
	}
	printResult(flags, recoverySummary(flags.recover, report, killed), {report: `${flags.recover}/report.json`, totals: report.totals, killed});
	return failedExit;
}
