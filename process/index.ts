/** The process layer's face inside the project (attempt plumbing included); the package's public face is `public.ts`. */
export {runInGroup, type RunOptions, type GroupRun} from './run-group.js';
export {startSpawner, type Launch, type Spawner} from './spawner/spawner.js';
export {graceMs, hardDeadline, hurriedGraceMs, hurry, whenHurried} from './grace.js';
export {endEverythingNow} from './end-now.js';
export {ProcessRecord, ProcessFailure, KilledProcess, TreeResources} from './process-record.js';
export {Containment, chooseContainment, containmentVariable} from './containment.js';
export type {OutputSink} from './byte-limit.js';
export {openAttemptScope, type AttemptScope} from './attempt/attempt-scope.js';
export {LeakAudit, LeakedProcess, attemptBackendLimits} from './attempt/leak-record.js';
export {describeLeaks} from './describe-leaks.js';
export {Sandbox} from './sandbox/sandbox-options.js';
export {checkSandbox, type SandboxCheck} from './sandbox/check-sandbox.js';
export {publishSandbox, sandboxFor, sandboxVariable} from './sandbox/attempt-sandbox.js';
export {LoopbackBridge, openLoopbackBridge, type OpenBridge} from './sandbox/loopback-bridge.js';
export {terminalText} from './terminal-text.js';
export {shellQuote} from './shell-quote.js';
export {MemoryLimit, memoryLimitVariable, publishMemoryLimit, publishedMemoryLimit} from './memory-limit.js';
export {cpuLimitVariable, publishCpuLimit, publishedCpuLimit} from './cpu-limit.js';
