import {hostname} from 'node:os';
import {Command} from 'commander';
import {UsageError} from '../supervisor/input-error.js';
import {openRedisLink, runWorker} from '../supervisor/queue/index.js';
import {okExit} from './exit-codes.js';
import {positiveInteger} from './parse-units.js';
import {absolutePath} from './path-option.js';

interface WorkerFlags {
	queue?: string;
	concurrency: string;
	name?: string;
	config?: string;
}

export function registerWorker(program: Command): void {
	program
		.command('worker')
		.description('take tasks of attempts coordinated through Redis (hlab eval --queue): admit each attempt\'s plan against this installation first, then run its tasks as a local attempt does')
		.option('--queue <url>', 'the Redis the coordinator uses: redis://HOST:PORT[/DB] or rediss://, with a password as redis://:PASSWORD@HOST:PORT')
		.option('--concurrency <n>', 'tasks this worker runs at once (never more than the plan\'s frozen concurrency)', '1')
		.option('--name <name>', 'how refusals, logs and results name this worker (default: host name and pid)')
		.option('--config <file>', 'configuration file, as the plan was frozen with (default: ./harness-lab.config.json when present)', absolutePath)
		.action(async (flags: WorkerFlags) => {
			process.exitCode = await work(flags);
		});
}

async function work(flags: WorkerFlags): Promise<number> {
	if (flags.queue === undefined) throw new UsageError('worker needs --queue redis://HOST:PORT (the Redis its coordinators use)');
	const concurrency = positiveInteger(flags.concurrency, '--concurrency');
	const link = await openRedisLink(flags.queue);
	const name = flags.name ?? `${hostname()}:${process.pid}`;
	const stop = new AbortController();
	const onSignal = (): void => stop.abort();
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	const say = (line: string): void => void process.stderr.write(`hlab worker ${name}: ${line}\n`);
	say(`waiting for attempts on ${link.shown}`);
	try {
		await runWorker(link, {name, concurrency, configPath: flags.config ?? null, say}, stop.signal);
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
	}
	return okExit;
}
