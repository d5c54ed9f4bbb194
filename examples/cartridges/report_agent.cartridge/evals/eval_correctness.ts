import {grader} from 'hlab/sdk';

/** The profit in the file is the expected one. */
export const eval_profit_is_correct = grader(['required'], context => {
	const expected = context.expected as {profit: number};
	return context.facts.observed_profit === expected.profit;
});

/** The agent finished through the done tool. */
export const eval_completed = grader(['required'], context => context.completed);
