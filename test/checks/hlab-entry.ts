#!/usr/bin/env node
import {Command} from 'commander';
import {registerEval} from '../../supervisor/cli/eval.js';
import {registerHostWorker} from '../../supervisor/cli/host-worker.js';

/** The checkout's `eval` and `host-worker` commands as one executable, for checks that drive an hlab executable. */
const program = new Command('hlab').exitOverride();
registerEval(program);
registerHostWorker(program);
await program.parseAsync(process.argv);
