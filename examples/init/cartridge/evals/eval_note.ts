import {grader} from 'hlab/sdk';

/** The note holds exactly the expected text. */
export const eval_note_matches = grader(['required'], context => context.facts.note === (context.expected as {note: string}).note);

/** The agent finished through the done tool. */
export const eval_completed = grader(['required'], context => context.completed);
