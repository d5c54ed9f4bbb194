import {hostname} from 'node:os';
import {Command} from 'commander';
import {UsageError} from '../supervisor/input-error.js';
import {okExit} from './exit-codes.js';
import {positiveInteger} from './parse-units.js';
import {absolutePath} from './path-option.js';
import {listenForStop, type StopWords} from './stop-signals.js';

interface QueueNodeFlags {
	queue?: string;
	parallelTasks: string;
	threads?: string;
	name?: string;
	config?: string;
	redisPasswordFile?: string;
	queueSecretFile?: string;
	insecureQueue?: boolean;
}

export function registerQueueNode(program: Command): void {
	program
		.command('queue-node')
		.description('serve attempts coordinated through Redis (hlab eval --queue) as one queue node: admit each attempt\'s plan against this installation first, then run its tasks as a local attempt does')
		.option('--queue <url>', 'the Redis the coordinator uses: redis://HOST:PORT[/DB] or rediss://, never with a password')
		.option('--redis-password-file <file>', 'the Redis password, read from this file (or from HLAB_REDIS_PASSWORD), never from the command line', absolutePath)
		.option('--queue-secret-file <file>', 'the secret shared with the coordinator (or HLAB_QUEUE_SECRET), which seals this node\'s admission and answers; never on the command line', absolutePath)
		.option('--insecure-queue', 'serve only unauthenticated attempts (a coordinator with --insecure-queue), without a queue secret')
		.option('--parallel-tasks <n>', 'how many tasks this node runs at once (never more than the plan\'s frozen concurrency)', '1')
		.option('--threads <n>', 'worker threads those tasks share (default: one per parallel task)')
		.option('--name <name>', 'how refusals, logs and results name this node (default: host name and pid)')
		.option('--config <file>', 'configuration file, as the plan was frozen with (default: ./harness-lab.config.json when present)', absolutePath)
		.action(async (flags: QueueNodeFlags) => {
			process.exitCode = await serve(flags);
		});
}

async function serve(flags: QueueNodeFlags): Promise<number> {
	if (flags.queue === undefined) throw new UsageError('queue-node needs --queue redis://HOST:PORT (the Redis its coordinators use)');
	const parallelTasks = positiveInteger(flags.parallelTasks, '--parallel-tasks');
	const threads = flags.threads === undefined ? null : positiveInteger(flags.threads, '--threads');
	// The queue (Redis client, job library, the attempt's engine) is loaded when the node serves, not by its --help.
	const {openRedisLink, runQueueNode, takeQueueCredentials} = await import('../supervisor/queue/index.js');
	// Read, then gone from this process's environment before any task's thread or command can inherit them.
	const {secret, redisPassword} = takeQueueCredentials({secretFile: flags.queueSecretFile ?? null, passwordFile: flags.redisPasswordFile ?? null, insecure: flags.insecureQueue === true, needsSecret: true});
	const link = await openRedisLink(flags.queue, redisPassword);
	const name = flags.name ?? `${hostname()}:${process.pid}`;
	const stop = new AbortController();
	const stopListening = listenForStop({words: queueNodeStopWords, stop});
	const say = (line: string): void => void process.stderr.write(`hlab queue-node ${name}: ${line}\n`);
	say(`waiting for attempts on ${link.shown}${secret === null ? ' (--insecure-queue: unauthenticated attempts only)' : ''}`);
	try {
		await runQueueNode(link, {name, parallelTasks, threads, configPath: flags.config ?? null, secret, secretFiles: [flags.queueSecretFile, flags.redisPasswordFile].filter(file => file !== undefined), say}, stop.signal);
	} finally {
		stopListening();
	}
	return okExit;
}

const queueNodeStopWords: StopWords = {
	first: 'the node takes no new task; the tasks in flight end and their results are sent',
	faster: 'every process of the node\'s tasks is killed now; their results are still sent',
	now: 'the tasks in flight send no result; their coordinators fail them as worker_lost',
};
