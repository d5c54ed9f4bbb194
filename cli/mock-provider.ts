import type {Command} from 'commander';
// The mock provider's own files, not scripted/index.ts: this process serves HTTP and needs none of the scripted model (its tokenizer).
import {scenarioNames, type ScenarioName} from '../scripted/mock-provider/scenarios.js';
import {startMockProvider} from '../scripted/mock-provider/start-mock-provider.js';
import {UsageError} from '../supervisor/input-error.js';
import {okExit} from './exit-codes.js';

export function registerMockProvider(program: Command): void {
	program
		.command('mock-provider')
		.description('serve an OpenAI-compatible test endpoint on 127.0.0.1 until SIGINT or SIGTERM: constant answers, 429 storms with Retry-After, connection resets, slow bodies or garbage JSON; prints its URL first')
		.option('--port <n>', 'the port (default: a free one)', '0')
		.option('--scenario <name>', `what it answers: ${scenarioNames.join(', ')}`, 'constant')
		.action(async (flags: {port: string; scenario: string}) => {
			const provider = await startMockProvider({port: portOf(flags.port), scenario: scenarioOf(flags.scenario)}).catch((error: NodeJS.ErrnoException) => {
				// A port in use or not ours to take is the caller's choice of port.
				if (error.code === 'EADDRINUSE' || error.code === 'EACCES') throw new UsageError(`--port ${flags.port}: ${error.code}`);
				throw error;
			});
			process.stdout.write(`${provider.url}\n`);
			const signal = await new Promise<NodeJS.Signals>(resolve => {
				for (const name of ['SIGINT', 'SIGTERM'] as const) process.once(name, () => resolve(name));
			});
			await provider.close();
			process.stderr.write(`hlab: mock provider stopped (${signal})\n`);
			process.exitCode = okExit;
		});
}

function portOf(text: string): number {
	const port = Number(text);
	if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a whole number from 0 to 65535, got '${text}'`);
	return port;
}

function scenarioOf(text: string): ScenarioName {
	const found = scenarioNames.find(name => name === text);
	if (found === undefined) throw new UsageError(`--scenario must be one of ${scenarioNames.join(', ')}, got '${text}'`);
	return found;
}
