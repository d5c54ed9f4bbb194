import {Option, type Command} from 'commander';
import type {PlanProvider} from '../supervisor/plan/plan-schema.js';
import type {ProviderLimits} from '../engine/index.js';
import {UsageError} from '../supervisor/input-error.js';
import {positiveDuration, positiveInteger} from './parse-units.js';

/** The provider flags as commander hands them over; `eval`, `agent`, `cartridge eval` and `search run` read them the same way. */
export interface ProviderChoiceFlags {
	provider: 'scripted' | 'openai-compatible';
	model?: string;
	baseUrl?: string;
	apiKeyEnv: string;
	reasoningEffort?: string;
}

/** The provider flags with the per-task budget flags, as `agent` and `eval --freeze` take them. */
export interface ProviderFlags extends ProviderChoiceFlags {
	maxSteps: string;
	timeout: string;
}

/** What the flags resolve to: the provider as a plan records it, and the per-task budget. */
export interface ProviderChoice {
	provider: PlanProvider;
	maxSteps: number;
	deadlineMs: number;
}

/** The scripted provider answers to any model name; this one is recorded when none is given. */
export const scriptedModelLabel = 'reference';
/** Enough model requests for a multi-step coding task; a step is one request. */
export const defaultMaxSteps = '30';
export const defaultTimeout = '2m';
/** The variable the official OpenAI client reads; an empty name sends no key (a local server). */
export const defaultApiKeyEnv = 'OPENAI_API_KEY';

/** Adds the provider options, with one set of defaults, to a command. */
export function addProviderChoiceOptions(command: Command): Command {
	return command
		.addOption(new Option('--provider <kind>', 'the model provider').choices(['scripted', 'openai-compatible']).default('scripted'))
		.option('--model <name>', `the model (scripted: a label recorded as given, default ${scriptedModelLabel})`)
		.option('--base-url <url>', 'openai-compatible: the API base URL (e.g. https://api.openai.com/v1)')
		.option('--api-key-env <name>', 'openai-compatible: the environment variable holding the API key, never recorded itself (\'\' sends no key)', defaultApiKeyEnv)
		.option('--reasoning-effort <effort>', 'openai-compatible: the reasoning effort to request');
}

/** Adds the provider options and the per-task budget options. */
export function addProviderOptions(command: Command): Command {
	return addProviderChoiceOptions(command)
		.option('--max-steps <n>', 'the step budget per task (model requests); with --cartridge, the contract\'s max_steps unless given', defaultMaxSteps)
		.option('--timeout <duration>', 'the wall-clock limit per task (e.g. 30s, 2m); with --cartridge, the contract\'s deadline_ms unless given', defaultTimeout);
}

/** Validates the flags; anything wrong is a UsageError that names the flag. */
export function readProviderFlags(flags: ProviderFlags): ProviderChoice {
	return {provider: readProviderChoice(flags), maxSteps: positiveInteger(flags.maxSteps, '--max-steps'), deadlineMs: positiveDuration(flags.timeout, '--timeout')};
}

/** The provider alone, as a plan records it; anything wrong is a UsageError that names the flag. */
export function readProviderChoice(flags: ProviderChoiceFlags): PlanProvider {
	if (flags.provider === 'scripted') {
		const stray = ([['--base-url', flags.baseUrl], ['--reasoning-effort', flags.reasoningEffort]] as const).filter(([, value]) => value !== undefined);
		if (stray.length > 0) throw new UsageError(`${stray.map(([name]) => name).join(', ')} applies only with --provider openai-compatible`);
		return {kind: 'scripted', model: flags.model ?? scriptedModelLabel};
	}
	if (!flags.baseUrl || !flags.model) throw new UsageError('--provider openai-compatible needs --base-url and --model');
	if (!URL.canParse(flags.baseUrl)) throw new UsageError(`--base-url ${flags.baseUrl} is not a URL`);
	const keyEnv = flags.apiKeyEnv.trim();
	if (keyEnv !== '' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) throw new UsageError(`--api-key-env ${flags.apiKeyEnv} is not an environment variable name`);
	return {kind: 'openai-compatible', model: flags.model, base_url: flags.baseUrl, api_key_env: keyEnv === '' ? null : keyEnv, reasoning_effort: flags.reasoningEffort ?? null};
}

/** The limits flags as commander hands them over (freeze only: a plan holds them for both sides). */
export interface LimitFlags {
	maxConnections?: string;
	requestsPerMinute?: string;
	tokensPerMinute?: string;
	requestTimeout?: string;
}

/** Adds the provider-limit options: how hard all the tasks of an attempt may drive the provider together. */
export function addLimitOptions(command: Command): Command {
	return command
		.option('--max-connections <n>', 'provider limit: requests in flight at once, across all tasks of an attempt')
		.option('--requests-per-minute <n>', 'provider limit: request starts per minute, spaced evenly')
		.option('--tokens-per-minute <n>', 'provider limit: tokens per minute, counted from the answers\' usage')
		.option('--request-timeout <duration>', 'provider limit: how long one request may take before it is retried (e.g. 60s)');
}

/** The frozen limits, or undefined when none is given (a plan without limits). */
export function readLimitFlags(flags: LimitFlags): ProviderLimits | undefined {
	const limits = {
		max_connections: flags.maxConnections === undefined ? null : positiveInteger(flags.maxConnections, '--max-connections'),
		requests_per_minute: flags.requestsPerMinute === undefined ? null : positiveInteger(flags.requestsPerMinute, '--requests-per-minute'),
		tokens_per_minute: flags.tokensPerMinute === undefined ? null : positiveInteger(flags.tokensPerMinute, '--tokens-per-minute'),
		request_timeout_ms: flags.requestTimeout === undefined ? null : positiveDuration(flags.requestTimeout, '--request-timeout'),
	};
	return Object.values(limits).every(value => value === null) ? undefined : limits;
}
