import module from 'node:module';

// Compiled on disk as the CLI is (bin/hlab.js): the spawner's imports (execa, zod) then load in a fraction of the time.
module.enableCompileCache?.();
await import('./spawner-serve.js');
