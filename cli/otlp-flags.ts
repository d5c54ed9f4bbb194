import type {Command} from 'commander';
import type {TraceOptions} from '../supervisor/attempt/index.js';
import {UsageError} from '../supervisor/input-error.js';

export interface OtlpFlags {
	otlp?: string;
	otlpContent?: boolean;
}

/** `--otlp URL` and `--otlp-content`, declared once for `eval --plan` and `export otlp`. */
export function addOtlpFlags(command: Command): Command {
	return command
		.option('--otlp <url>', 'send each task as an OpenTelemetry trace over OTLP/HTTP to this collector (its base URL, /v1/traces added, or the full traces URL; or HLAB_OTLP_ENDPOINT); a collector that is down is told once and costs the attempt nothing else')
		.option('--otlp-content', 'with --otlp: put the conversation in the spans (messages, tool arguments and results, the grader\'s explanation); without it they carry ids, models, token counts and verdicts only');
}

/** The trace options, or null when no collector is named; a URL that is no http(s) URL is bad input. */
export function traceOptionsOf(flags: OtlpFlags, env: NodeJS.ProcessEnv = process.env): TraceOptions | null {
	const endpoint = flags.otlp ?? (env.HLAB_OTLP_ENDPOINT?.trim() || undefined);
	if (endpoint === undefined) {
		if (flags.otlpContent === true) throw new UsageError('--otlp-content needs --otlp URL (or HLAB_OTLP_ENDPOINT)');
		return null;
	}
	let url: URL;
	try {
		url = new URL(endpoint);
	} catch {
		throw new UsageError(`--otlp: ${endpoint} is not a URL`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--otlp: ${endpoint} is not an http or https URL (OTLP/HTTP)`);
	if (url.username !== '' || url.password !== '') throw new UsageError('--otlp: a URL with credentials in it would be written to the attempt\'s log; give the collector\'s credentials as OTEL_EXPORTER_OTLP_HEADERS');
	return {endpoint, content: flags.otlpContent === true};
}
