import {CollectAnswer, GradeAnswer, type CollectorResult, type FinalState, type GraderResult, type JudgeEndpoint} from './evaluation-protocol.js';
import {runEvaluation} from './run-evaluation.js';
import type {LoadedCartridge, LoadedCase, LoadedEvalModule} from './loaded-cartridge.js';
import type {ExecutionOutcome} from '../engine/index.js';
import type {CaseRecord, Verdict} from './case-record.js';
import {caseVerdict} from './verdict.js';

/** What judging one case needs: the run's outcome and workspace, never what the agent claimed. */
export interface JudgeInput {
	cartridge: LoadedCartridge;
	entry: LoadedCase;
	outcome: ExecutionOutcome;
	workspace: string;
	/** Where the evaluation processes run. */
	cwd: string;
	threshold: number | null;
	judge: JudgeEndpoint | null;
}

export type Judgement = Pick<CaseRecord, 'collectors' | 'facts' | 'graders' | 'processes'> & {verdict: Verdict};

/** Collectors then graders, each module in its own supervised process, and the fail-closed verdict over them. */
export async function judgeCase(input: JudgeInput): Promise<Judgement> {
	const state = finalState(input.outcome);
	const processes: CaseRecord['processes'] = [];
	const collectors = await collect(input, state, processes);
	const facts = Object.assign({}, ...collectors.map(result => result.facts ?? {})) as CaseRecord['facts'];
	const graders = await grade(input, state, facts, processes);
	const processProblems = processes.flatMap(entry => (entry.problem ? [{module: entry.module, problem: entry.problem}] : []));
	const verdict = caseVerdict({outcome: input.outcome, collectors, graders, processProblems, threshold: input.threshold});
	return {collectors, facts, graders, processes, verdict};
}

function finalState(outcome: ExecutionOutcome): FinalState {
	return {completed: outcome.status === 'done', status: outcome.status, reason: outcome.reason, steps: outcome.steps, final_text: outcome.final_text};
}

/** The results an evaluation process owed but could not give: each of the module's exports, errored. */
function unanswered(module: LoadedEvalModule, problem: string): {name: string; marks: string[]; problem: string}[] {
	return module.exports.map(entry => ({name: entry.name, marks: entry.marks, problem}));
}

async function collect(input: JudgeInput, state: FinalState, processes: CaseRecord['processes']): Promise<CollectorResult[]> {
	const results: CollectorResult[] = [];
	for (const module of input.cartridge.collectors) {
		const answer = await runEvaluation({mode: 'collect', module: {path: module.source.path, code: module.source.code}, input: {state, runtime: {project_root: input.workspace, case_id: input.entry.id}}}, CollectAnswer, {cwd: input.cwd});
		processes.push({role: 'collector', module: module.source.path, problem: answer.ok ? null : answer.problem, process: answer.process});
		if (answer.ok) results.push(...answer.answer.results);
		else results.push(...unanswered(module, answer.problem).map(entry => ({module: module.source.path, name: entry.name, status: 'error' as const, facts: null, error: entry.problem})));
	}
	return results;
}

async function grade(input: JudgeInput, state: FinalState, facts: CaseRecord['facts'], processes: CaseRecord['processes']): Promise<GraderResult[]> {
	const results: GraderResult[] = [];
	const {entry} = input;
	const context = {case_id: entry.id, task: {goal: entry.case.task.goal}, expected: entry.case.expected ?? null, marks: entry.case.marks, facts, completed: state.completed, state};
	for (const module of input.cartridge.graders) {
		const answer = await runEvaluation({mode: 'grade', module: {path: module.source.path, code: module.source.code}, context, threshold: input.threshold, judge: input.judge}, GradeAnswer, {cwd: input.cwd});
		processes.push({role: 'grader', module: module.source.path, problem: answer.ok ? null : answer.problem, process: answer.process});
		if (answer.ok) results.push(...answer.answer.results);
		else results.push(...unanswered(module, answer.problem).map(item => ({module: module.source.path, name: item.name, marks: item.marks, status: 'error' as const, score: null, detail: item.problem, judge_exchanges: []})));
	}
	return results;
}
