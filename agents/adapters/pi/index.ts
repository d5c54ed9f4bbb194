import {notBuilt} from '../not-built.js';

// The reserved flags are the ones pi uses for model, provider, key, print mode and the system prompt.
export const piAdapter = notBuilt({id: 'pi', version: 1, bin: 'pi', reservedFlags: ['--model', '--provider', '--api-key', '--print', '-p', '--system-prompt']});
