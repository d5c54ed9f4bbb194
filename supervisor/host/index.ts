export {runHostTask, hostDeadlineSlackMs, hostStdoutLimit, hostStderrLimit, type HostTaskInput, type HostTaskRun} from './run-host-task.js';
export {openHostSession, closeHostSession, readHostWall, hostDirOf, hostTaskDir, HostSessionError, type HostSession} from './host-session.js';
export {identifyHost, type HostIdentity} from './host-identity.js';
export {supervisedTiming, type SupervisedTiming, type SideTiming} from './supervised-timing.js';
export {HostAttemptRecord, HostCheckpoint, HostTaskRecord} from './host-records.js';
