export {drainAttemptQueue} from './drain-attempt.js';
export {queueExecutor} from './queue-executor.js';
export {readQueueRecord} from './queue-record.js';
export {openRedisLink} from './redis-link.js';
export {runWorker} from './run-worker.js';
