// The scripted provider's process: the compile cache first, as the CLI's (bin/hlab.js), then the server, imported after it.
import module from 'node:module';

module.enableCompileCache?.();
await import('./serve-scripted.js');
// Written now, not at exit: this process only ever ends by a signal, which skips the write at exit.
module.flushCompileCache?.();
