import {dirname} from 'node:path';
import {z} from 'zod';
import {decisionSchema} from '../compare/decision-schema.js';
import {candidatesDecisionSchema} from '../compare/candidates-decision-schema.js';
import type {ListingLine} from './listing-line.js';
import {readRegularFile} from './read-regular-file.js';
import {shortDigest} from './short-digest.js';

// Only the fields a line shows, of `hlab eval --compare`'s decision (one candidate) or decisions (several).
const OneDecision = z.object({
	schema: z.literal(decisionSchema),
	decided_at: z.string(),
	plan_digest: z.string().nullable(),
	decision: z.string(),
	candidate: z.object({report: z.string()}),
});
const ManyDecisions = z.object({
	schema: z.literal(candidatesDecisionSchema),
	decided_at: z.string(),
	candidates: z.array(z.object({candidate: z.string(), verdict: z.string(), decision: z.object({plan_digest: z.string().nullable()})})),
});
const DecisionFields = z.discriminatedUnion('schema', [OneDecision, ManyDecisions]);

export async function describeDecision(file: string, path: string): Promise<ListingLine> {
	const line: ListingLine = {kind: 'decision', path, plan: null, side: null, candidate: null, status: null, when: null, problem: null};
	let decision: z.infer<typeof DecisionFields>;
	try {
		decision = DecisionFields.parse(JSON.parse(await readRegularFile(file)));
	} catch {
		return {...line, problem: 'half-written or not a decision'};
	}
	if (decision.schema === decisionSchema) {
		return {...line, plan: shortDigest(decision.plan_digest), candidate: dirname(decision.candidate.report), status: decision.decision, when: decision.decided_at};
	}
	// Several candidates on one line: each named with its own verdict.
	return {
		...line, plan: shortDigest(decision.candidates[0]?.decision.plan_digest ?? null), when: decision.decided_at,
		candidate: decision.candidates.map(entry => entry.candidate).join(','),
		status: decision.candidates.map(entry => `${entry.candidate}:${entry.verdict}`).join(','),
	};
}
