import type {TaskResult} from '../attempt/report/report-schema.js';
import {verifyAttemptLedger, type CarriedTasks} from '../attempt/index.js';
import type {ResumeSource} from './resume-source.js';

/** What a resumed attempt may take from the earlier one, and a line for each entry it reruns that had a record. */
export interface TakeableRecords {
	results: CarriedTasks['results'];
	/** Entries with a record that is rerun, each with why (one line each). */
	rerun: Array<{entry: string; why: string}>;
}

/**
 * The earlier attempt's records that its seal vouches for (an unbroken MAC chain with its key, one record per entry, its
 * files unchanged), of this plan's denominator, and that hold a verdict: a record that the attempt (not the candidate)
 * kept from one (interrupted, never started, its worker lost, the provider unavailable) is rerun like a missing one. Nothing else is trusted.
 */
export async function takeableRecords(source: ResumeSource): Promise<TakeableRecords> {
	const {plan, record, dir} = source;
	const results: CarriedTasks['results'] = new Map();
	const rerun: TakeableRecords['rerun'] = [];
	// Without attempt.json nobody recorded what ran (and no record was sealed before it): nothing can stand in.
	if (record === null) return {results, rerun};
	if (record.plan_digest !== plan.plan_digest) {
		return {results, rerun: [{entry: 'every entry', why: `${dir}/attempt.json ran plan ${record.plan_digest}, but its plan.json is ${plan.plan_digest}: no record is taken`}]};
	}
	const ledger = await verifyAttemptLedger(dir, record);
	plan.task_ids.forEach((id, index) => {
		const distrusted = ledger.distrusted.get(index);
		if (distrusted !== undefined) return void rerun.push({entry: id, why: `its record cannot be trusted: ${distrusted}`});
		const sealed = ledger.trusted.get(index);
		if (sealed === undefined) return;
		if (ledger.seal !== 'sealed' || sealed.seal === undefined) return void rerun.push({entry: id, why: 'its record is unsealed: nothing vouches for it'});
		if (sealed.result.task_id !== id) return void rerun.push({entry: id, why: `its record names entry ${sealed.result.task_id}, not this plan's`});
		const kept = keptFromVerdict(sealed.result);
		if (kept !== null) return void rerun.push({entry: id, why: kept});
		results.set(index, {result: sealed.result, files: sealed.seal.files});
	});
	return {results, rerun};
}

/** Why a record holds no verdict on the candidate, or null when it does (passed, or failed by what the candidate did). */
function keptFromVerdict(result: TaskResult): string | null {
	if (result.reason === 'aborted') return 'it was interrupted';
	if (result.reason === 'worker_lost') return 'its queue node was lost';
	if (result.reason === 'evidence') return 'its evidence was not vouched for';
	// What a comparison would ask to rerun anyway: the provider, not the candidate, failed it.
	if (result.outcome?.infrastructure === true) return 'the infrastructure failed it (the provider stayed unavailable)';
	if (result.wall_ms === null) return `it never started (${result.reason ?? 'failed'})`;
	return null;
}
