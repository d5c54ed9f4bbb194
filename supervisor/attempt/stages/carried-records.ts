import type {AttemptRecord} from './attempt-record.js';
import type {TaskResult} from '../report/report-schema.js';

/** What an attempt ran, as far as a record of one attempt may stand in another: the side, the plan and every candidate's digests. */
export interface RanIdentity {
	side: AttemptRecord['side'];
	plan_digest: string;
	candidate: {source_digest: string; code_digest: string} | null;
	host: string | null;
	agent: AttemptRecord['agent'];
	harness: string | null;
}

/**
 * Records of an earlier attempt of the same plan (`hlab eval --resume`), already verified against that attempt's seal:
 * this attempt takes each in place of running its entry, when it runs what that attempt ran.
 */
export interface CarriedTasks {
	from: {attempt_id: string; dir: string};
	/** What the earlier attempt ran (its attempt.json). */
	ran: RanIdentity;
	/** By entry index: the sealed result, and the files its seal vouched for (relative to `from.dir`) with their digests. */
	results: Map<number, {result: TaskResult; files: Record<string, string>}>;
	/** One line for the person watching. */
	say: (line: string) => void;
}

/** What an attempt record says ran. */
export function ranIdentityOf(record: AttemptRecord): RanIdentity {
	return {
		side: record.side,
		plan_digest: record.plan_digest,
		candidate: record.candidate === null ? null : {source_digest: record.candidate.source_digest, code_digest: record.candidate.code_digest},
		host: record.host?.digest ?? null,
		agent: record.agent,
		harness: record.harness?.digest ?? null,
	};
}
