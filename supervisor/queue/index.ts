export {drainAttemptQueue} from './drain-attempt.js';
export {queuePlacement} from './queue-placement.js';
export {passwordVariable, takeQueueCredentials} from './queue-credentials.js';
export {readQueueRecord} from './queue-record.js';
export {openRedisLink} from './redis-link.js';
export {runQueueNode} from './run-queue-node.js';
