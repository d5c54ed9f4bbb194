/**
 * A task's evidence in other tools' formats. ATIF here; the OTLP export has its own face (`otlp/index.ts`), loaded only
 * by an attempt that sends traces, so that the OpenTelemetry packages cost no other attempt its start-up time.
 */
export {AtifTrajectory} from './atif/atif-schema.js';
export {taskTrajectory, trajectoryFile, writeTaskTrajectory} from './atif/task-trajectory.js';
