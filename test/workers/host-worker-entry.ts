#!/usr/bin/env node
import {Command} from 'commander';
import {failOn} from '../../cli/exit-codes.js';
import {registerHostWorker} from '../../cli/host-worker.js';

/** The `host-worker` command of this checkout as an executable of its own (a plain-file host identity), ending as main.ts ends a command. */
const program = new Command('hlab').exitOverride();
registerHostWorker(program);
try {
	await program.parseAsync(process.argv);
} catch (error) {
	failOn(error);
}
