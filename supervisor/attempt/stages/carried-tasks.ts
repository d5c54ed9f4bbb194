import {copyFile, mkdir, rm} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {canonicalJson} from '../../../files/canonical-json.js';
import {writeJson} from '../../../files/write-json.js';
import {fingerprintHarness} from '../../../harness/index.js';
import {changedFiles} from '../../evidence/seal/index.js';
import type {AttemptContext} from './attempt-context.js';
import type {CarriedTasks, RanIdentity} from './carried-records.js';
import {hostRef} from './attempt-host.js';
import {candidateIdentity} from './candidate-evidence.js';
import type {Services} from './start-services.js';
import type {TaskResult} from '../report/report-schema.js';

/** What this attempt runs, measured as its attempt.json records it. */
function ranHere(attempt: AttemptContext, services: Services): RanIdentity {
	const candidate = candidateIdentity(services.candidate);
	return {
		side: attempt.side,
		plan_digest: attempt.plan.plan_digest,
		candidate: candidate === null ? null : {source_digest: candidate.source_digest, code_digest: candidate.code_digest},
		host: hostRef(services.host)?.digest ?? null,
		agent: services.agent?.identity ?? null,
		harness: attempt.options.harness == null ? null : fingerprintHarness(attempt.options.harness).digest,
	};
}

/** The carried records this attempt may take: none when it runs something else than the attempt they come from (said in one line). */
export function acceptedCarry(attempt: AttemptContext, services: Services): CarriedTasks | null {
	const carried = attempt.options.carried ?? null;
	if (carried === null) return null;
	const here = ranHere(attempt, services);
	const differs = (Object.keys(here) as Array<keyof RanIdentity>).filter(key => canonicalJson(here[key] ?? null) !== canonicalJson(carried.ran[key] ?? null));
	if (differs.length > 0) {
		carried.say(`${carried.from.dir} ran another ${differs.join(', ')}: none of its records is taken; every entry runs`);
		return null;
	}
	const total = attempt.plan.task_ids.length;
	carried.say(`resuming ${carried.from.dir}: ${carried.results.size} of ${total} entries taken from its sealed ledger, ${total - carried.results.size} to run`);
	return carried;
}

/**
 * An entry taken from the earlier attempt: the files its seal vouched for copied into this attempt's task folder and
 * held to the seal's digests once copied (a file changed since it was verified is not taken: null, and the entry runs),
 * its result (naming where it came from) written and appended to this attempt's own ledger, sealed over the copies.
 */
export async function carryTask(attempt: AttemptContext, carried: CarriedTasks, index: number): Promise<TaskResult | null> {
	const {result, files} = carried.results.get(index)!;
	for (const file of Object.keys(files)) {
		await mkdir(dirname(join(attempt.dir, file)), {recursive: true});
		await copyFile(join(carried.from.dir, file), join(attempt.dir, file));
	}
	const changed = changedFiles(attempt.dir, files);
	if (changed.length > 0) {
		carried.say(`${result.task_id} is rerun: its evidence changed in ${carried.from.dir} after it was verified (${changed.join('; ')})`);
		for (const file of Object.keys(files)) await rm(join(attempt.dir, file), {force: true});
		return null;
	}
	// A record already carried once keeps the attempt that ran it.
	const taken: TaskResult = {...result, resumed_from: result.resumed_from ?? carried.from.attempt_id};
	const resultFile = taken.evidence['result'];
	if (resultFile !== undefined) await writeJson(join(attempt.dir, resultFile), taken, {atomic: true});
	await attempt.ledger.append(taken);
	return taken;
}
