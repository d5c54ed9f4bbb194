import {existsSync} from 'node:fs';
import {resolve} from 'node:path';
import {ranIdentityOf, runAttempt, type AttemptOptions, type CarriedTasks} from '../attempt/index.js';
import {ResumeError} from './resume-error.js';
import {openResumeSource, type ResumeSource} from './resume-source.js';
import {takeableRecords} from './takeable-records.js';

export interface ResumeOptions extends Omit<AttemptOptions, 'planPath' | 'carried' | 'artifacts'> {
	/** The crashed or interrupted attempt's evidence directory. */
	from: string;
	/** The new attempt's evidence directory; null: the first free `<from>-resumed[-N]` beside it. */
	artifacts: string | null;
	/** One line for the person watching (what is taken, what is rerun and why). */
	say: (line: string) => void;
}

/**
 * `hlab eval --resume DIR`: a new attempt of DIR's plan, into a new evidence directory, that takes DIR's sealed
 * finished records (verified against DIR's seal, copied and sealed again in its own ledger) and runs only the rest of
 * the denominator. Without a candidate flag it runs what DIR ran (its recorded candidate), as the same side; a host or agent side is refused.
 */
export async function resumeAttempt(options: ResumeOptions): ReturnType<typeof runAttempt> {
	const from = resolve(options.from);
	if (!existsSync(from)) throw new ResumeError('not_an_attempt', `${from} does not exist: no attempt to resume`);
	const source = await openResumeSource(from, options.say);
	const subject = sameSubject(options, source);
	const {results, rerun} = await takeableRecords(source);
	for (const {entry, why} of rerun) options.say(`${entry} is rerun: ${why}`);
	if (source.record === null) options.say(`resuming ${from}: it died before writing attempt.json, so it sealed no record; every entry runs`);
	const carried: CarriedTasks | null = source.record === null ? null : {
		from: {attempt_id: source.record.attempt_id, dir: from},
		ran: ranIdentityOf(source.record),
		results,
		say: options.say,
	};
	const {from: _from, say: _say, ...attempt} = options;
	return runAttempt({...attempt, ...subject, planPath: source.planPath, artifacts: options.artifacts ?? freeSibling(from), carried});
}

/** The side and the candidate of the earlier attempt, unless the command line names them; the other side is refused. */
function sameSubject(options: ResumeOptions, source: ResumeSource): Partial<Pick<AttemptOptions, 'side' | 'candidatePath'>> {
	// A pinned controller's setup and score calls are the attempt's own evidence (DIR/controller/), not a task's.
	if (source.plan.controller !== null) throw new ResumeError('not_resumable', `${source.dir} ran a plan with a pinned controller, whose calls' evidence belongs to the whole attempt: it cannot be resumed yet (hlab eval --recover keeps its records; run the plan again)`);
	const record = source.record;
	if (record === null) return {};
	// A supervised side's duration is its whole attempt's span on one supervisor's monotonic clock: two attempts have no common one.
	if (record.host !== null || record.agent !== null) throw new ResumeError('not_resumable', `${source.dir} ran ${record.host !== null ? 'a host candidate' : 'a third-party agent'}, whose whole-attempt wall time is measured on one supervisor's clock: it cannot be resumed yet (hlab eval --recover keeps its records; run the plan again)`);
	const named = options.candidatePath !== null || (options.candidateHost ?? null) !== null || (options.agentSpec ?? null) !== null || (options.candidateCartridge ?? null) !== null;
	const side = options.side ?? (named ? 'candidate' : record.side);
	if (side !== record.side) throw new ResumeError('other_side', `${source.dir} is the ${record.side} side; a resume runs the same side (got ${side})`);
	if (named) return {side};
	return {side, candidatePath: record.candidate?.source_path ?? null};
}

function freeSibling(from: string): string {
	for (let n = 1; ; n += 1) {
		const dir = `${from}-resumed${n === 1 ? '' : `-${n}`}`;
		if (!existsSync(dir)) return dir;
	}
}
