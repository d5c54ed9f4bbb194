import {builtinAgent} from '../../harness/builtin-agent.js';

/** The built-in agent's system prompt (its harness holds the text). */
export const systemPrompt = builtinAgent.instructions.system;
