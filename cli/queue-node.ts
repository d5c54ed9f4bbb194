import {hostname} from 'node:os';
import {Command} from 'commander';
import {UsageError} from '../supervisor/input-error.js';
import {openRedisLink, runQueueNode} from '../supervisor/queue/index.js';
import {okExit} from './exit-codes.js';
import {positiveInteger} from './parse-units.js';
import {absolutePath} from './path-option.js';

interface QueueNodeFlags {
	queue?: string;
	parallelTasks: string;
	threads?: string;
	name?: string;
	config?: string;
}

export function registerQueueNode(program: Command): void {
	program
		.command('queue-node')
		.description('serve attempts coordinated through Redis (hlab eval --queue) as one queue node: admit each attempt\'s plan against this installation first, then run its tasks as a local attempt does')
		.option('--queue <url>', 'the Redis the coordinator uses: redis://HOST:PORT[/DB] or rediss://, with a password as redis://:PASSWORD@HOST:PORT')
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
	const link = await openRedisLink(flags.queue);
	const name = flags.name ?? `${hostname()}:${process.pid}`;
	const stop = new AbortController();
	const onSignal = (): void => stop.abort();
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	const say = (line: string): void => void process.stderr.write(`hlab queue-node ${name}: ${line}\n`);
	say(`waiting for attempts on ${link.shown}`);
	try {
		await runQueueNode(link, {name, parallelTasks, threads, configPath: flags.config ?? null, say}, stop.signal);
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
	}
	return okExit;
}
