export {runHostTask} from './run-host-task.js';
export {openHostSession, closeHostSession, readHostWall, hostDirOf, HostSessionError, type HostSession} from './host-session.js';
export {identifyHost} from './host-identity.js';
export {supervisedTiming, type SideTiming} from './supervised-timing.js';
export {HostAttemptRecord, HostTaskRecord} from './host-records.js';
export {HostFailureReason} from './host-failure.js';
export {writeMeteringRecord} from './metering-record.js';
export {startMeteringProxy, type LastExchange, type MeteringProxy} from './metering-proxy.js';
export {proxyOnlySandbox} from './proxy-only-sandbox.js';
