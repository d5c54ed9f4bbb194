import {canonicalJson} from '../../files/canonical-json.js';
import {plan, type Planner} from './planner.js';
import {fingerprintPolicy} from './policy-schema.js';
import {recordMismatches} from './replay-records.js';
import {fingerprintContext, type PlanOutcome} from './search-record.js';
import type {SearchReport} from './search-report.js';

/** A replay that did not reproduce the recorded planning, with every mismatch named. */
export class ReplayMismatchError extends Error {
	readonly reason = 'replay-mismatch';
	constructor(readonly mismatches: string[]) {
		super(`the planning does not replay: ${mismatches.join('; ')}`);
	}
}

/**
 * Planning replay: every recorded plan is planned again from its recorded context, with the providers bound as
 * recorded, and must give the same choice, requests, refusals and proposal; every other recorded field is checked
 * against what it is computed from (replay-records.ts), and with the search folder `dir`, against the replicates'
 * evidence. It replays decisions only: no model is called, no task runs, nothing is measured again. Returns how
 * many plans were replayed.
 */
export async function replaySearch(report: SearchReport, planner: Planner, dir: string | null = null): Promise<number> {
	const mismatches = bindingMismatches(report, planner);
	if (mismatches.length > 0) throw new ReplayMismatchError(mismatches);
	mismatches.push(...await recordMismatches(report, dir));
	const harnesses = new Map(report.nodes.map(node => [node.node_id, node.harness]));
	let replayed = 0;
	for (const record of report.rounds) {
		for (const [index, {context, outcome}] of record.plans.entries()) {
			const where = `round ${record.round} plan ${index + 1}`;
			if (fingerprintContext(context) !== outcome.context_fingerprint) {
				mismatches.push(`${where}: the context changed`);
				continue;
			}
			const known = new Map([...harnesses].filter(([id]) => context.nodes.some(node => node.node_id === id)));
			let again: PlanOutcome;
			try {
				again = await plan(planner, context, known);
			} catch (error) {
				mismatches.push(`${where}: the planning raised ${error instanceof Error ? `${error.constructor.name}: ${error.message}` : typeof error}`);
				continue;
			}
			const differs = differingParts(again, outcome);
			if (differs.length > 0) mismatches.push(`${where}: a different outcome (${differs.join(', ')})`);
			replayed += 1;
		}
	}
	if (mismatches.length > 0) throw new ReplayMismatchError(mismatches);
	return replayed;
}

function bindingMismatches(report: SearchReport, planner: Planner): string[] {
	return [
		...(canonicalJson(planner.search.binding) === canonicalJson(report.search) ? [] : ['the search provider is not bound as recorded']),
		...(canonicalJson(planner.mutation.binding) === canonicalJson(report.mutation) ? [] : ['the mutation provider is not bound as recorded']),
		...(fingerprintPolicy(planner.policy) === report.policy_fingerprint ? [] : ['the policy is not the recorded policy']),
	];
}

const parts = ['choice', 'requests', 'responses', 'refusals', 'proposal', 'exhausted', 'reason'] as const;

function differingParts(again: PlanOutcome, recorded: PlanOutcome): string[] {
	return parts.filter(part => canonicalJson(again[part]) !== canonicalJson(recorded[part]));
}
