import {builtinAgent} from '../../harness/builtin-agent.js';
import {offeredTools} from '../../harness/offered-tools.js';

/** The built-in agent's enabled tool names; `done` ends the loop. */
export const toolNames: readonly string[] = builtinAgent.enabled_tools;

/** The tools the built-in agent offers the model on every request (generated from their argument schemas). */
export const toolDefinitions = offeredTools(builtinAgent);
