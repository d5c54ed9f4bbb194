export {runOneTask, type RunOneOptions} from './run-one-task.js';
export {AgentRun, agentRunSchema} from './agent-run.js';
export {agentRunSummary} from './agent-run-summary.js';
