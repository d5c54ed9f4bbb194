import type {LoadedCartridge} from './loaded-cartridge.js';
import {z} from 'zod';
import {CollectorResult, GraderResult} from './evaluation-protocol.js';
import {ExecutionOutcome} from '../engine/index.js';
import {HarnessFingerprint} from '../harness/index.js';
import {ProcessRecord} from '../process/index.js';

/*
 * What `hlab cartridge eval` writes, one folder per case (self-contained) and run.json last:
 *
 *   RUNS/run.json                       RunRecord: the cartridge, provider, options, each case's verdict, the exit status
 *   RUNS/cases/<id>/record.json         CaseRecord: outcome, usage, facts, grader results, process records, verdict
 *   RUNS/cases/<id>/trajectory.json     the agent-visible conversation, as the model saw it
 *   RUNS/cases/<id>/expected.json       the case's expected data, apart: the agent never saw it
 *   RUNS/cases/<id>/exchanges.json      every model request and response (provenance; no API key is ever in them)
 *   RUNS/cases/<id>/state/              the engine's journal.jsonl and messages.jsonl
 *   RUNS/cases/<id>/workspace/          the case's workspace after the run, as the collectors saw it
 */

export const caseRecordSchema = 'harness-lab/cartridge-case@1';
export const runRecordSchema = 'harness-lab/cartridge-run@1';

/** Why a case (or a run) did not pass: each a reason callers branch on, with a line for people. */
export const FailureReason = z.enum([
	'required_failed', 'required_skipped', 'required_errored', 'grader_error', 'grader_malformed',
	'collector_error', 'collector_malformed', 'evaluation_process', 'run_failed', 'threshold',
	'no_required_grader', 'malformed_record', 'replay_diverged',
]);
export const Failure = z.object({reason: FailureReason, detail: z.string()});
export type Failure = z.infer<typeof Failure>;

export const Verdict = z.object({passed: z.boolean(), failures: z.array(Failure)});
export type Verdict = z.infer<typeof Verdict>;

/** The provider as recorded: never a key, only the name of the variable that held it. */
export const ProviderIdentity = z.discriminatedUnion('kind', [
	z.object({kind: z.literal('scripted'), model: z.string(), script_digest: z.string().nullable(), script_path: z.string().nullable()}),
	z.object({kind: z.literal('openai-compatible'), model: z.string(), base_url: z.string(), api_key_env: z.string(), reasoning_effort: z.string().nullable()}),
]);
export type ProviderIdentity = z.infer<typeof ProviderIdentity>;

export const CartridgeIdentity = z.object({
	name: z.string(),
	dir: z.string(),
	fingerprint: HarnessFingerprint,
	digests: z.record(z.string(), z.string()),
	/** runtime.yaml as loaded: host policy, recorded but not part of the contract. */
	runtime: z.record(z.string(), z.json()),
});
export type CartridgeIdentity = z.infer<typeof CartridgeIdentity>;

export const EvaluationProcess = z.object({
	role: z.enum(['collector', 'grader']),
	module: z.string(),
	/** Why the process gave no usable answer, or null. */
	problem: z.string().nullable(),
	process: ProcessRecord,
});

/** One model request with what came back (a response body or an error), as the engine's journal holds it. */
export const Exchange = z.object({
	step_index: z.number().int(),
	attempt: z.number().int(),
	request: z.json(),
	status: z.number().int().nullable(),
	response: z.json().nullable(),
	error: z.object({reason: z.string(), message: z.string()}).nullable(),
});
export type Exchange = z.infer<typeof Exchange>;

export const CaseRecord = z.object({
	schema: z.literal(caseRecordSchema),
	case_id: z.string(),
	goal: z.string(),
	marks: z.array(z.string()),
	case_digest: z.string(),
	expected_digest: z.string(),
	cartridge: CartridgeIdentity,
	provider: ProviderIdentity,
	/** The recorded case this one replays (its model responses fixed), or null for a live run. */
	replay_of: z.object({run: z.string(), case_id: z.string()}).nullable(),
	outcome: ExecutionOutcome,
	/** The execution's wall time as the supervisor measured it; null when it never started. */
	wall_ms: z.number().nonnegative().nullable(),
	collectors: z.array(CollectorResult),
	facts: z.record(z.string(), z.json()),
	graders: z.array(GraderResult),
	processes: z.array(EvaluationProcess),
	verdict: Verdict,
}).strict();
export type CaseRecord = z.infer<typeof CaseRecord>;

export const RunRecord = z.object({
	schema: z.literal(runRecordSchema),
	cartridge: CartridgeIdentity,
	provider: ProviderIdentity,
	options: z.object({case: z.string().nullable(), max_steps: z.number().int().nullable(), threshold: z.number().nullable(), judge: z.object({model: z.string().nullable()}).nullable()}),
	replay_of: z.string().nullable(),
	started_at: z.string(),
	wall_ms: z.number().nonnegative(),
	cases: z.array(z.object({id: z.string(), verdict: Verdict})),
	/** Failures of the run as a whole (an empty required suite). */
	failures: z.array(Failure),
	passed: z.boolean(),
	exit_status: z.number().int(),
}).strict();
export type RunRecord = z.infer<typeof RunRecord>;

export function cartridgeIdentity(cartridge: LoadedCartridge): CartridgeIdentity {
	return {
		name: cartridge.manifest.name,
		dir: cartridge.dir,
		fingerprint: cartridge.fingerprint,
		digests: cartridge.digests,
		runtime: cartridge.runtime as CartridgeIdentity['runtime'],
	};
}
