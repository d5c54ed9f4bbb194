import {notBuilt} from '../not-built.js';

// The reserved flags are the ones opencode uses for model, prompt and agent.
export const opencodeAdapter = notBuilt({id: 'opencode', version: 1, bin: 'opencode', reservedFlags: ['--model', '-m', '--prompt', '--agent']});
