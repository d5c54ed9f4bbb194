import {text} from 'node:stream/consumers';
import type {AskModel, CollectorInput, GraderContext, MarkedGrader} from '../sdk/cartridge.js';
import {judgeAsker} from './ask-judge.js';
import {EvaluationJob, type CollectorResult, type GraderResult, type ListedExport} from './evaluation-protocol.js';

/*
 * An evaluation process: started by the host (runInGroup) with one job on stdin, it imports a compiled
 * collector or grader module and answers one JSON value on stdout. A throw becomes an explicit error result.
 */

type Namespace = Record<string, unknown>;

async function importCode(code: string): Promise<Namespace> {
	return await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`) as Namespace;
}

function isMarkedGrader(value: unknown): value is MarkedGrader {
	return typeof value === 'object' && value !== null && (value as {kind?: unknown}).kind === 'harness-lab/grader' && typeof (value as {judge?: unknown}).judge === 'function';
}

/** The graders of a module: marked graders, and plain functions named eval_* (no marks). */
function graders(namespace: Namespace): {name: string; marks: string[]; asks_model: boolean; judge: MarkedGrader['judge']}[] {
	return Object.entries(namespace).sort(([a], [b]) => a.localeCompare(b)).flatMap(([name, value]) => {
		if (isMarkedGrader(value)) return [{name, marks: [...value.marks], asks_model: value.asks_model === true, judge: value.judge}];
		if (typeof value === 'function' && name.startsWith('eval_')) return [{name, marks: [], asks_model: false, judge: value as MarkedGrader['judge']}];
		return [];
	});
}

/** The collectors of a module: its exported functions. */
function collectors(namespace: Namespace): {name: string; collect: (input: CollectorInput) => unknown}[] {
	return Object.entries(namespace).sort(([a], [b]) => a.localeCompare(b))
		.filter((entry): entry is [string, (input: CollectorInput) => unknown] => typeof entry[1] === 'function')
		.map(([name, collect]) => ({name, collect}));
}

const message = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value that survives JSON unchanged (facts are stored and handed to graders as JSON). */
function jsonSafe(value: Record<string, unknown>): boolean {
	try {
		return JSON.stringify(JSON.parse(JSON.stringify(value))) === JSON.stringify(value);
	} catch {
		return false;
	}
}

async function list(job: Extract<EvaluationJob, {mode: 'list'}>): Promise<object> {
	const modules = [];
	for (const module of job.modules) {
		let exports: ListedExport[] = [];
		const problems: string[] = [];
		try {
			const namespace = await importCode(module.code);
			exports = module.kind === 'grader'
				? graders(namespace).map(({name, marks, asks_model}) => ({name, marks, asks_model}))
				: collectors(namespace).map(({name}) => ({name, marks: [], asks_model: false}));
			if (exports.length === 0) problems.push(`${module.path}: exports no ${module.kind === 'grader' ? 'grader (grader(marks, fn) or a function named eval_*)' : 'collector function'}`);
		} catch (error) {
			problems.push(`${module.path}: cannot be loaded: ${message(error)}`);
		}
		modules.push({path: module.path, exports, problems});
	}
	return {modules};
}

async function collect(job: Extract<EvaluationJob, {mode: 'collect'}>): Promise<object> {
	const namespace = await importCode(job.module.code);
	const results: CollectorResult[] = [];
	for (const {name, collect: run} of collectors(namespace)) {
		const base = {module: job.module.path, name};
		try {
			const facts = await run(structuredClone(job.input) as CollectorInput);
			if (!isObject(facts) || !jsonSafe(facts)) results.push({...base, status: 'malformed', facts: null, error: 'a collector must return a JSON object of facts'});
			else results.push({...base, status: 'ok', facts: facts as CollectorResult['facts'], error: null});
		} catch (error) {
			results.push({...base, status: 'error', facts: null, error: message(error)});
		}
	}
	return {results};
}

/** A grader's answer as a result; `threshold` is the pass mark of a bare score (1 when none is given). */
function judged(answer: unknown, threshold: number | null): Pick<GraderResult, 'status' | 'score' | 'detail'> {
	const pass = threshold ?? 1;
	if (typeof answer === 'boolean') return {status: answer ? 'passed' : 'failed', score: answer ? 1 : 0, detail: null};
	if (typeof answer === 'number' && answer >= 0 && answer <= 1) return {status: answer >= pass ? 'passed' : 'failed', score: answer, detail: null};
	if (isObject(answer) && typeof answer.skip === 'string') return {status: 'skipped', score: null, detail: answer.skip};
	if (isObject(answer) && typeof answer.passed === 'boolean' && (answer.score === undefined || (typeof answer.score === 'number' && answer.score >= 0 && answer.score <= 1))
		&& (answer.detail === undefined || typeof answer.detail === 'string')) {
		return {status: answer.passed ? 'passed' : 'failed', score: (answer.score as number | undefined) ?? (answer.passed ? 1 : 0), detail: (answer.detail as string | undefined) ?? null};
	}
	return {status: 'malformed', score: null, detail: `not a grader answer: ${JSON.stringify(answer) ?? String(answer)}`.slice(0, 300)};
}

/** The `ask` of a grader declared with grader() rather than modelGrader() when no judge is configured. */
const refuseToAsk: AskModel = async () => {
	throw new Error('this grader asks a model but is not declared with modelGrader(), or --judge was not given');
};

async function grade(job: Extract<EvaluationJob, {mode: 'grade'}>): Promise<object> {
	const namespace = await importCode(job.module.code);
	const results: GraderResult[] = [];
	for (const {name, marks, asks_model: asksModel, judge} of graders(namespace)) {
		const judgeExchanges: GraderResult['judge_exchanges'] = [];
		const base = {module: job.module.path, name, marks, judge_exchanges: judgeExchanges};
		if (asksModel && job.judge === null) {
			results.push({...base, status: 'skipped', score: null, detail: 'it asks a model: run with --judge'});
			continue;
		}
		const ask: AskModel = job.judge === null ? refuseToAsk : judgeAsker(job.judge, judgeExchanges);
		try {
			const context = structuredClone(job.context) as GraderContext;
			results.push({...base, ...judged(await judge(context, ask), job.threshold)});
		} catch (error) {
			results.push({...base, status: 'error', score: null, detail: message(error)});
		}
	}
	return {results};
}

// What cartridge code prints goes to stderr: stdout carries the answer alone.
console.log = console.info = console.debug = console.error;
const job = EvaluationJob.parse(JSON.parse(await text(process.stdin)));
const answer = job.mode === 'list' ? await list(job) : job.mode === 'collect' ? await collect(job) : await grade(job);
// Ends once the answer is out: a timer a module left behind must not hold the process to its deadline.
process.stdout.write(`\n${JSON.stringify(answer)}\n`, () => process.exit(0));
