import {grader} from 'hlab/sdk';

const canonical = (value: unknown): string => JSON.stringify(value, Object.keys(value as object).sort());

/** The file holds exactly the expected settings: the port changed, nothing else lost. */
export const eval_settings_match = grader(['required'], context => {
	const expected = (context.expected as {settings: object}).settings;
	return canonical(context.facts.settings) === canonical(expected);
});

/** The agent finished through the done tool. */
export const eval_completed = grader(['required'], context => context.completed);

/** Efficiency, kept apart from correctness: fewer steps score higher; never required. */
export const eval_steps = grader(['efficiency'], context => ({passed: true, score: Math.min(1, 3 / Math.max(1, context.state.steps)), detail: `${context.state.steps} steps`}));
