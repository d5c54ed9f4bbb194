/** Third-party agents as a task's executor: admission of a spec, and one task run under the supervisor. */
export {admitAgent, type AdmittedAgent} from './admit-agent.js';
export {runAgentTask} from './run-agent-task.js';
export {AgentTaskRecord} from './agent-task-record.js';
export {readAgentWall} from './agent-timing.js';
