import type {TotalBudget} from '../../plan/plan-schema.js';
import type {TaskFailure} from '../task-core/failed-result.js';
import type {TaskResult} from '../report/report-schema.js';

/**
 * The attempt's frozen total budget, checked before each task is launched: tasks launched so far, and tokens the
 * finished tasks used. Tasks already in flight are never stopped; a task with unknown tokens adds nothing it can name,
 * so the count is then a lower bound and the refusal says so.
 */
export class BudgetGate {
	#launched = 0;
	#tokens = 0;
	#unknownTokens = 0;

	constructor(private readonly budget: TotalBudget | undefined) {}

	/** Null when the next task may launch (it is counted as launched), else why it may not. */
	launch(): TaskFailure | null {
		const spent = this.#spent();
		if (spent !== null) return {reason: 'budget', message: `not launched: the attempt's total budget is spent (${spent})`};
		this.#launched += 1;
		return null;
	}

	/** A finished task's tokens count against the budget. */
	finished(result: TaskResult): void {
		// No usage at all: the task never reached a model (it failed before its execution); null tokens: unknown.
		if (result.usage !== null && result.usage.total_tokens === null) this.#unknownTokens += 1;
		this.#tokens += result.usage?.total_tokens ?? 0;
	}

	#spent(): string | null {
		const budget = this.budget;
		if (budget === undefined) return null;
		if (budget.max_total_tasks !== null && this.#launched >= budget.max_total_tasks) return `${this.#launched} of at most ${budget.max_total_tasks} tasks launched`;
		if (budget.max_total_tokens !== null && this.#tokens >= budget.max_total_tokens) return `${this.#tokensUsed()} of at most ${budget.max_total_tokens} tokens used${this.#unknownNote()}`;
		return null;
	}

	#tokensUsed(): string {
		return this.#unknownTokens === 0 ? String(this.#tokens) : `at least ${this.#tokens}`;
	}

	#unknownNote(): string {
		const count = this.#unknownTokens;
		return count === 0 ? '' : `; the tokens of ${count} finished task${count === 1 ? '' : 's'} are unknown`;
	}
}
