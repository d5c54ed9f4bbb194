import {ExportResultCode, type ExportResult} from '@opentelemetry/core';
import {OTLPTraceExporter} from '@opentelemetry/exporter-trace-otlp-http';
import {resourceFromAttributes} from '@opentelemetry/resources';
import {BatchSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter} from '@opentelemetry/sdk-trace';
import {hlabVersion} from '../../plan/hlab-version.js';
import {semconvSchemaUrl} from './semconv-version.js';
import {emitTaskTrace, type TaskTraceInput} from './task-spans.js';

interface TraceExportOptions {
	/** The collector: its base URL (`/v1/traces` is added) or the full traces URL. */
	endpoint: string;
	content: boolean;
	/** Told once, at the first export that failed; nothing after it is said. */
	onProblem: (line: string) => void;
}

/** How long one batch may take to reach the collector, its retries included: what the attempt's close may wait at most. */
const exportTimeoutMs = 2_000;

/** Sends tasks' traces over OTLP/HTTP in the background; a collector that is down is told once and costs nothing else. */
export class TraceExport {
	private readonly provider: TracerProvider;
	private readonly tracer;

	constructor(private readonly options: TraceExportOptions) {
		const exporter = new ReportingExporter(new OTLPTraceExporter({url: tracesUrl(options.endpoint), timeoutMillis: exportTimeoutMs}), options);
		this.provider = new TracerProvider({
			resource: resourceFromAttributes({'service.name': 'harness-lab', 'service.version': hlabVersion}),
			spanProcessors: [new BatchSpanProcessor({exporter, scheduledDelayMillis: 200, exportTimeoutMillis: exportTimeoutMs})],
		});
		this.tracer = this.provider.getTracer('harness-lab', hlabVersion, {schemaUrl: semconvSchemaUrl});
	}

	/** Synchronous and cheap: the spans are queued, the batch processor sends them later. */
	task(input: Omit<TaskTraceInput, 'content'>): void {
		emitTaskTrace(this.tracer, {...input, content: this.options.content});
	}

	/** Sends what is queued and stops; a collector that does not answer is given up after the export timeout. */
	async close(): Promise<void> {
		await this.provider.shutdown().catch(() => undefined);
	}
}

/** `http://host:4318` means its traces path; a URL with a path is taken as it is. */
function tracesUrl(endpoint: string): string {
	const url = new URL(endpoint);
	if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/traces';
	return url.toString();
}

/**
 * The OTLP exporter, with its first failure told (it would otherwise go to the OpenTelemetry diagnostic logger, silent
 * by default); after it nothing more is sent, so a collector that is down costs one batch's retries and no more.
 */
class ReportingExporter implements SpanExporter {
	private failure: Error | null = null;

	constructor(private readonly inner: SpanExporter, private readonly options: TraceExportOptions) {}

	export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
		if (this.failure !== null) return done({code: ExportResultCode.FAILED, error: this.failure});
		this.inner.export(spans, result => {
			if (result.code !== ExportResultCode.SUCCESS && this.failure === null) {
				this.failure = result.error ?? new Error('no answer');
				this.options.onProblem(`OTLP export to ${tracesUrl(this.options.endpoint)} failed (${this.failure.message}); the attempt goes on without sending its traces`);
			}
			done(result);
		});
	}

	shutdown(): Promise<void> {
		return this.inner.shutdown();
	}

	forceFlush(): Promise<void> {
		return this.inner.forceFlush?.() ?? Promise.resolve();
	}
}
