/** hlab agent: one task, through the attempt's own pieces. */
export {runOneTask} from './run-one-task.js';
export type {SubjectChoice} from './run-subject.js';
export {agentRunSummary} from './agent-run-summary.js';
