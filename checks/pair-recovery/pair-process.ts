import {Command} from 'commander';
import {registerPair} from '../../supervisor/cli/pair.js';

/** `hlab pair` as its own process, so the recovery check can crash and cancel the real command. */
const program = new Command('hlab').exitOverride();
registerPair(program);
await program.parseAsync(process.argv);
