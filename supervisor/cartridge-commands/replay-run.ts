import {readFile} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {z} from 'zod';
import {writeJson} from '../../files/write-json.js';
import {responseScriptSchema, scriptDigest, ScriptTurn, type ResponseScript} from '../../scripted/index.js';
import {CaseRecord, Exchange, RunRecord} from '../../cartridges/case-record.js';
import {evalCartridge, type EvalRefusal, type EvalResult} from './eval-cartridge.js';

export const replaySchema = 'harness-lab/cartridge-replay@1';

/** How one replayed case compares with its recording. */
export const CaseComparison = z.object({
	id: z.string(),
	recorded: z.object({passed: z.boolean(), outcome: z.string(), graders: z.record(z.string(), z.string())}),
	replayed: z.object({passed: z.boolean(), outcome: z.string(), graders: z.record(z.string(), z.string())}),
	/** Whether the replay sent the recorded model turns unchanged (it must, unless it diverged). */
	responses_unchanged: z.boolean(),
	/** Set when the replay stopped because the changed harness left the recording (`script_unknown_tool`, `script_exhausted`). */
	diverged: z.object({reason: z.string(), detail: z.string()}).nullable(),
	changes: z.array(z.string()),
});
export type CaseComparison = z.infer<typeof CaseComparison>;

export const ReplayReport = z.object({
	schema: z.literal(replaySchema),
	recorded_run: z.string(),
	recorded_fingerprint: z.string(),
	replayed_fingerprint: z.string(),
	cases: z.array(CaseComparison),
	changed: z.boolean(),
});
export type ReplayReport = z.infer<typeof ReplayReport>;

export type ReplayResult =
	| {ok: true; report: ReplayReport; evaluation: Extract<EvalResult, {ok: true}>}
	| {ok: false; reason: EvalRefusal['reason'] | 'malformed_record'; problems: string[]};

async function readJson<T>(path: string, schema: z.ZodType<T>): Promise<{ok: true; value: T} | {ok: false; problem: string}> {
	try {
		const parsed = schema.safeParse(JSON.parse(await readFile(path, 'utf8')));
		if (parsed.success) return {ok: true, value: parsed.data};
		return {ok: false, problem: `${path}: ${parsed.error.issues.slice(0, 3).map(issue => `${issue.path.join('.') || 'record'}: ${issue.message}`).join('; ')}`};
	} catch (error) {
		return {ok: false, problem: `${path}: ${(error as Error).message}`};
	}
}

/** The model turns a case received, in order: the assistant message of every answered request. */
function recordedTurns(exchanges: Exchange[]): ScriptTurn[] {
	return exchanges.filter(exchange => exchange.response !== null).map(exchange => {
		const message = (exchange.response as {choices: {message: {content?: string | null; tool_calls?: {function: {name: string; arguments?: string | null}}[] | null}}[]}).choices[0]!.message;
		return ScriptTurn.parse({
			content: message.content ?? null,
			tool_calls: (message.tool_calls ?? []).map(call => ({type: 'function', function: {name: call.function.name, arguments: call.function.arguments ?? ''}})),
		});
	});
}

/** The response script of a recorded run: each case's captured model turns. */
async function scriptOfRun(runDir: string, run: RunRecord): Promise<{ok: true; script: ResponseScript; records: Map<string, CaseRecord>} | {ok: false; problems: string[]}> {
	const tasks: Record<string, ScriptTurn[]> = {};
	const records = new Map<string, CaseRecord>();
	const problems: string[] = [];
	for (const {id} of run.cases) {
		const caseDir = join(runDir, 'cases', id);
		const record = await readJson(join(caseDir, 'record.json'), CaseRecord);
		const exchanges = await readJson(join(caseDir, 'exchanges.json'), z.array(Exchange));
		if (!record.ok) problems.push(record.problem);
		if (!exchanges.ok) problems.push(exchanges.problem);
		if (!record.ok || !exchanges.ok) continue;
		try {
			tasks[id] = recordedTurns(exchanges.value);
		} catch (error) {
			problems.push(`${join(caseDir, 'exchanges.json')}: a response is not a chat completion: ${(error as Error).message.split('\n')[0]}`);
			continue;
		}
		records.set(id, record.value);
	}
	return problems.length > 0 ? {ok: false, problems} : {ok: true, script: {schema: responseScriptSchema, tasks}, records};
}

const gradersOf = (record: CaseRecord): Record<string, string> => Object.fromEntries(record.graders.map(result => [`${result.module}#${result.name}`, result.status]));

/** The named reason a replayed case stopped with, when the harness asked for what the recording does not hold. */
function divergence(record: CaseRecord): CaseComparison['diverged'] {
	const match = /\b(script_unknown_tool|script_exhausted)\b/.exec(record.outcome.message ?? '');
	return match ? {reason: match[1]!, detail: record.outcome.message ?? ''} : null;
}

function compare(recorded: CaseRecord, replayed: CaseRecord, turnsSent: ScriptTurn[], turnsRecorded: ScriptTurn[]): CaseComparison {
	const before = gradersOf(recorded);
	const after = gradersOf(replayed);
	const changes: string[] = [];
	if (recorded.verdict.passed !== replayed.verdict.passed) changes.push(`verdict: ${recorded.verdict.passed ? 'passed' : 'failed'} -> ${replayed.verdict.passed ? 'passed' : 'failed'}`);
	if (recorded.outcome.status !== replayed.outcome.status) changes.push(`outcome: ${recorded.outcome.status} -> ${replayed.outcome.status}`);
	for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
		if (before[name] !== after[name]) changes.push(`grader ${name}: ${before[name] ?? 'absent'} -> ${after[name] ?? 'absent'}`);
	}
	for (const key of new Set([...Object.keys(recorded.facts), ...Object.keys(replayed.facts)])) {
		if (JSON.stringify(recorded.facts[key]) !== JSON.stringify(replayed.facts[key])) changes.push(`fact ${key}: ${JSON.stringify(recorded.facts[key]) ?? 'absent'} -> ${JSON.stringify(replayed.facts[key]) ?? 'absent'}`);
	}
	return {
		id: recorded.case_id,
		recorded: {passed: recorded.verdict.passed, outcome: recorded.outcome.status, graders: before},
		replayed: {passed: replayed.verdict.passed, outcome: replayed.outcome.status, graders: after},
		responses_unchanged: JSON.stringify(turnsSent) === JSON.stringify(turnsRecorded.slice(0, turnsSent.length)),
		diverged: divergence(replayed),
		changes,
	};
}

/**
 * `hlab cartridge replay`: re-runs each case of a recorded run against another cartridge with the recorded model
 * responses fixed, while its tool code, collectors and graders execute again, and reports what changed.
 */
export async function replayRun(options: {run: string; cartridge: string; out: string; signal?: AbortSignal}): Promise<ReplayResult> {
	const runDir = resolve(options.run);
	const run = await readJson(join(runDir, 'run.json'), RunRecord);
	if (!run.ok) return {ok: false, reason: 'malformed_record', problems: [run.problem]};
	const captured = await scriptOfRun(runDir, run.value);
	if (!captured.ok) return {ok: false, reason: 'malformed_record', problems: captured.problems};
	const evaluation = await evalCartridge({
		dir: options.cartridge,
		out: options.out,
		caseIds: run.value.cases.map(entry => entry.id),
		maxSteps: run.value.options.max_steps,
		threshold: run.value.options.threshold,
		// The judge's answers were not part of the agent's conversation: graders that ask a model are skipped.
		judge: null,
		provider: {kind: 'scripted', script: captured.script, digest: scriptDigest(captured.script), path: null},
		replayOf: runDir,
		...(options.signal ? {signal: options.signal} : {}),
	});
	if (!evaluation.ok) return evaluation;
	const cases = [];
	for (const replayed of evaluation.records) {
		const sent = await readJson(join(resolve(options.out), 'cases', replayed.case_id, 'exchanges.json'), z.array(Exchange));
		cases.push(compare(captured.records.get(replayed.case_id)!, replayed, sent.ok ? recordedTurns(sent.value) : [], captured.script.tasks[replayed.case_id] ?? []));
	}
	const report: ReplayReport = {
		schema: replaySchema,
		recorded_run: runDir,
		recorded_fingerprint: run.value.cartridge.fingerprint.digest,
		replayed_fingerprint: evaluation.run.cartridge.fingerprint.digest,
		cases,
		changed: cases.some(entry => entry.changes.length > 0),
	};
	await writeJson(join(resolve(options.out), 'replay.json'), report, {durable: true, exclusive: true});
	return {ok: true, report, evaluation};
}
