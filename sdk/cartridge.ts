/*
 * What a cartridge's code sees: a tool's execute(context, args), a resource's build(runtime), a collector's
 * (input) and a grader's (context). Cartridge files import these from `harness-lab/sdk`, like candidates.
 */

/** Where one case runs: given to resources when they are built and to collectors after the run. */
export interface CartridgeRuntime {
	/** The case's fresh workspace (absolute). */
	project_root: string;
	case_id: string;
}

/** The second argument of a tool's `execute`: the resources it `requires`, by name. */
export interface ToolContext {
	tool: string;
	/** The case's workspace (absolute); the tool may act only there. */
	workspace: string;
	resources: Readonly<Record<string, unknown>>;
}

/** A tool's implementation: tools/<name>/execute.ts exports `execute`. Its result is shown to the model (JSON unless a string). */
export type ToolExecute<Args = Record<string, unknown>> = (context: ToolContext, args: Args) => unknown;

/** A resource: resources/<name>.ts exports `build`, called once per case before the run. */
export type ResourceBuild = (runtime: CartridgeRuntime) => unknown;

/** How the agent's run ended, as the host saw it (never what a tool claimed). */
export interface FinalState {
	/** True when the agent finished through the done tool. */
	completed: boolean;
	status: 'done' | 'policy_stop' | 'unfinished' | 'failed';
	reason: string | null;
	steps: number;
	final_text: string | null;
}

/** A collector's input: evals/collect_*.ts export functions that observe the final state and the workspace. */
export interface CollectorInput {
	state: FinalState;
	runtime: CartridgeRuntime;
}

/** A collector returns facts (a JSON object), merged into the graders' `facts`. */
export type Collector = (input: CollectorInput) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** What a grader judges from: the case (with its expected data), the collected facts and the final state. */
export interface GraderContext {
	case_id: string;
	task: {goal: string};
	/** The case's `expected` mapping; the agent never saw it. */
	expected: unknown;
	/** The case's marks (smoke, regression, ...). */
	marks: readonly string[];
	facts: Readonly<Record<string, unknown>>;
	completed: boolean;
	state: FinalState;
}

/** A grader's answer that it did not judge (with why); a required grader that skips fails the case. */
export interface GraderSkip {
	skip: string;
}

/** true/false (pass, score 1/0), a score in [0, 1], `{passed, score?, detail?}`, or a skip. */
export type GraderAnswer = boolean | number | {passed: boolean; score?: number; detail?: string} | GraderSkip;

/** Asks the judge model one question (a user message) and returns its text answer. */
export type AskModel = (prompt: string) => Promise<string>;

export type GraderFunction = (context: GraderContext, ask: AskModel) => GraderAnswer | Promise<GraderAnswer>;

/** A grader with its marks (`required`, `smoke`, ...): what evals/eval_*.ts export. */
export interface MarkedGrader {
	kind: 'harness-lab/grader';
	marks: readonly string[];
	/** Whether it asks a model: it runs only with `--judge`, and is skipped otherwise. */
	asks_model: boolean;
	judge: GraderFunction;
}

/** Marks a grader: `export const eval_profit = grader(['required'], context => ...)`. */
export function grader(marks: readonly string[], judge: GraderFunction): MarkedGrader {
	return {kind: 'harness-lab/grader', marks: [...marks], asks_model: false, judge};
}

/** A grader that asks the judge model: `modelGrader(['smoke'], async (context, ask) => (await ask('...')).includes('YES'))`. */
export function modelGrader(marks: readonly string[], judge: GraderFunction): MarkedGrader {
	return {kind: 'harness-lab/grader', marks: [...marks], asks_model: true, judge};
}

/** The answer of a grader that cannot judge this case. */
export function skip(reason: string): GraderSkip {
	return {skip: reason};
}
