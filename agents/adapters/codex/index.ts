import {notBuilt} from '../not-built.js';

// The reserved flags are the ones Codex uses for model, configuration, sandbox and approvals.
export const codexAdapter = notBuilt({id: 'codex', version: 1, bin: 'codex', reservedFlags: ['--model', '-m', '--config', '-c', '--sandbox', '-s', '--ask-for-approval', '-a', '--dangerously-bypass-approvals-and-sandbox', '--full-auto']});
