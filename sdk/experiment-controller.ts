import {
	ControllerRequest, ErrorResponse, controllerMethods, describeIssues, protocolVersion, validateSchedule,
	type AcceptParams, type AcceptResult, type ControllerMethod, type ScheduleParams, type ScheduleResult,
	type ScoreParams, type ScoreResult, type SetupParams, type SetupResult, type TasksParams, type TasksResult,
} from '../controller-protocol/index.js';

export type {
	AcceptParams, AcceptResult, ControllerIdentity, ControllerMethod, ControllerTask, Decision, ErrorResponse, ReportSummary,
	ScheduleParams, ScheduleResult, ScoreParams, ScoreResult, SetupParams, SetupResult, TaskSummary, TasksParams, TasksResult,
} from '../controller-protocol/index.js';

type Answer<T> = T | Promise<T>;

/**
 * An experiment controller: one function per protocol method. A method left out answers
 * `not_implemented`, so a controller implements only what its plans use.
 */
export interface ExperimentController {
	tasks?(params: TasksParams): Answer<TasksResult>;
	schedule?(params: ScheduleParams): Answer<ScheduleResult>;
	setup?(params: SetupParams): Answer<SetupResult>;
	score?(params: ScoreParams): Answer<ScoreResult>;
	accept?(params: AcceptParams): Answer<AcceptResult>;
}

/** Thrown by a controller method to answer with a specific error code instead of `failed`. */
export class ControllerError extends Error {
	readonly code: string;
	constructor(code: string, message: string) {
		super(message);
		this.name = 'ControllerError';
		this.code = code;
	}
}

export interface DispatchOptions {
	/** Where the request is read from; process.stdin by default. */
	input?: NodeJS.ReadableStream;
	/** Where the response is written; process.stdout by default. */
	output?: NodeJS.WritableStream;
	/** Where diagnostics go; process.stderr by default. */
	diagnostics?: NodeJS.WritableStream;
	/** Called with the exit status once the response is written; ends the process by default. */
	exit?: (status: number) => void;
}

type Outcome = {version: 1; result: unknown} | ErrorResponse;

/**
 * Answers one protocol call: reads the request, validates it, runs the method, validates its
 * result and writes exactly one JSON response. Any failure becomes an error response and a
 * non-zero exit status. Resolves with that status.
 */
export async function dispatchExperimentController(controller: ExperimentController, options: DispatchOptions = {}): Promise<number> {
	const diagnostics = options.diagnostics ?? process.stderr;
	const response = await answer(controller, await readAll(options.input ?? process.stdin), diagnostics);
	const status = 'error' in response ? 1 : 0;
	await writeLine(options.output ?? process.stdout, JSON.stringify(response));
	// Exiting explicitly keeps a stray timer in controller code from holding the call open until its deadline.
	(options.exit ?? (code => process.exit(code)))(status);
	return status;
}

async function answer(controller: ExperimentController, input: string, diagnostics: NodeJS.WritableStream): Promise<Outcome> {
	let raw: unknown;
	try {
		raw = JSON.parse(input);
	} catch (error) {
		return failure('invalid_request', `the request is not JSON: ${(error as Error).message}`);
	}
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return failure('invalid_request', 'the request is not a JSON object');
	const {version} = raw as {version?: unknown};
	if (version !== undefined && version !== protocolVersion) return failure('unsupported_version', `this controller speaks protocol ${protocolVersion}, the request has version ${JSON.stringify(version)}`);
	const parsed = ControllerRequest.safeParse(raw);
	if (!parsed.success) return failure('invalid_request', describeIssues(parsed.error));
	const request = parsed.data;
	const method = controller[request.method] as ((params: unknown) => unknown) | undefined;
	if (typeof method !== 'function') return failure('not_implemented', `this controller does not implement ${request.method}`);
	let result: unknown;
	try {
		result = await method.call(controller, request.params);
	} catch (error) {
		diagnostics.write(`experiment controller: ${request.method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		if (error instanceof ControllerError) {
			// A code outside the protocol's form would make the whole response invalid, so it travels in the message instead.
			if (ErrorResponse.shape.error.shape.code.safeParse(error.code).success) return failure(error.code, error.message);
			return failure('failed', `${request.method} failed with code ${JSON.stringify(error.code)}: ${error.message}`);
		}
		return failure('failed', `${request.method} failed: ${error instanceof Error ? error.message : String(error)}`);
	}
	return checkResult(request, result);
}

/** The controller's own result must pass the same checks harness-lab applies, so its author sees the mistake first. */
function checkResult(request: ControllerRequest, result: unknown): Outcome {
	const checked = controllerMethods[request.method as ControllerMethod].result.safeParse(result);
	if (!checked.success) return failure('invalid_result', `${request.method} returned a result that fails the protocol schema: ${describeIssues(checked.error)}`);
	if (request.method === 'schedule') {
		const schedule = validateSchedule(request.params.task_ids, checked.data as ScheduleResult);
		if (!schedule.ok) return failure('invalid_result', schedule.message);
	}
	return {version: protocolVersion, result: checked.data};
}

function failure(code: string, message: string): ErrorResponse {
	return {version: protocolVersion, error: {code, message}};
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
	return Buffer.concat(chunks).toString('utf8');
}

function writeLine(output: NodeJS.WritableStream, text: string): Promise<void> {
	return new Promise((resolve, reject) => {
		output.write(`${text}\n`, error => (error ? reject(error) : resolve()));
	});
}
