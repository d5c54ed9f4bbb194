/**
 * harness-lab's public face (the package's `"."` export): what a library user may rely on. Run a command as its own
 * process group under a deadline and byte limits, have its whole tree ended whatever way it ends, and read the record
 * of what happened. Everything else in the package is internal and may change without notice (docs/library.md).
 */

/** Runs a command as the leader of a new process group and ends every process of its tree before it returns. */
export {runInGroup} from './run-group.js';
/** What `runInGroup` takes (argv, deadline, grace, byte limits, sinks, signal) and what it answers (the record, kept output). */
export type {RunOptions, GroupRun} from './run-group.js';
/** Where a stream's output goes, up to its limit: kept in a buffer, ignored, or passed to a stream. */
export type {OutputSink} from './byte-limit.js';
/** The record of one tree (`process.json`), its failure classes, each process ended, and the resources used: zod schemas. */
export {ProcessRecord, ProcessFailure, KilledProcess, TreeResources} from './process-record.js';
/** The backends that hold a tree together (cgroup, proc, portable): a zod schema; `RunOptions.containment` forces one. */
export {Containment} from './containment.js';
/** The bubblewrap sandbox a command may run in (`RunOptions.sandbox`): a zod schema. */
export {Sandbox} from './sandbox/sandbox-options.js';
/** One line naming each process that outlived the command and had to be ended. */
export {describeLeaks} from './describe-leaks.js';
/** The default time between SIGTERM and SIGKILL of a group, in milliseconds. */
export {graceMs} from './grace.js';
