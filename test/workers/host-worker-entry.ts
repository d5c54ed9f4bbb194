#!/usr/bin/env node
import {Command} from 'commander';
import {registerHostWorker} from '../../cli/host-worker.js';

/** The `host-worker` command of this checkout as an executable of its own (a plain-file host identity). */
const program = new Command('hlab').exitOverride();
registerHostWorker(program);
await program.parseAsync(process.argv);
