export {drainAttemptQueue} from './drain-attempt.js';
export {queueExecutor, type QueueSettings} from './queue-executor.js';
export {readQueueRecord} from './queue-record.js';
export {openRedisLink, type RedisLink} from './redis-link.js';
export {runWorker} from './run-worker.js';
