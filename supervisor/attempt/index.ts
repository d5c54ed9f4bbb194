/**
 * The attempt: one side of an experiment run over the plan's fixed denominator. Outside this folder, import only this
 * face (the report format alone has its own light path, `report/report-schema.ts`: see the rule file).
 *
 *   stages/     the attempt's stages in order: open, admit, start services, record, run the tasks, audit, report
 *   task-core/  one task turn wherever it is placed (here with an executor, or shipped to a queue): set up, execute,
 *               grade, audit leaks, export, record
 *   executors/  what executes a turn placed here: worker threads (in-process), supervised host processes, agent CLIs
 *   report/     the report, its summary lines, and recovery of an attempt that did not finish
 *   progress/   what a person watching the terminal sees
 */
export {runAttempt, type AttemptOptions} from './run-attempt.js';
export {checkCandidateFile} from './stages/load-candidate.js';
export {serveTasks, type ServedTasks, type TaskService} from './serve-tasks.js';
export {recoverAttempt} from './report/recover.js';
export {readAttemptRecord, verifyAttemptLedger} from './report/attempt-evidence.js';
export {recoverySummary, reportSummary} from './report/report-summary.js';
export {totalsOf} from './report/totals.js';
export {readPlanFile} from './stages/read-plan.js';
// An earlier attempt's sealed records taken in place of running their entries (hlab eval --resume).
export {ranIdentityOf, type CarriedTasks} from './stages/carried-records.js';
export {Ledger, readLedger} from './task-core/ledger.js';
export {builtinAttemptTask, type AttemptTask} from './task-core/attempt-task.js';
export {failedResult, TaskFailure} from './task-core/failed-result.js';
export type {RecordedTask, TaskExecutor, TaskTurn} from './task-core/task-execution.js';
export type {NodeAudit, RemotePlacement} from './task-core/task-placement.js';
// One task turn outside an attempt (hlab agent, hlab cartridge eval), on the attempt's own executor.
export {runStandaloneTurn, type StandaloneRun} from './task-core/standalone-turn.js';
export {inProcessExecutor} from './executors/in-process-executor.js';
export {startProvider} from './stages/start-provider.js';
// A recorded attempt in other tools' formats (hlab export).
export {exportAttemptTrajectories, exportAttemptTraces} from './export/export-attempt.js';
export type {TraceOptions} from './export/attempt-traces.js';
