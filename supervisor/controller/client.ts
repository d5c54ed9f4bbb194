import {join, parse} from 'node:path';
import {
	ControllerIdentity, ControllerMethod, ControllerRequest, ErrorResponse, controllerResponses, describeIssues, protocolVersion, validateSchedule,
	type ControllerParams, type ControllerResult, type ScheduleParams, type ScheduleResult,
} from '../../controller-protocol/index.js';
import {runInGroup, type ProcessRecord} from '../../process/index.js';
import type {ControllerCallError, ControllerCallResult} from './call-failure.js';
import {copyPinnedInputs, createCallDirectory, evidenceJson, lastCallNumber, writeCallFile} from './call-evidence.js';
import {readOneJsonValue} from './json-values.js';
import {verifyIdentityFiles, type PinMismatch} from './verify-identity.js';

/** Every controller call ends within a minute. */
export const controllerTimeoutMs = 60_000;
export const controllerStdoutLimit = 8 * 1024 * 1024;
export const controllerStderrLimit = 256 * 1024;

export interface ControllerClientOptions {
	identity: ControllerIdentity;
	/** The attempt directory; calls and input copies are recorded under `DIR/controller/`. */
	evidenceDir?: string;
	/** The deadline of one call; 60 s unless a test needs less. */
	deadlineMs?: number;
	/** Time between SIGTERM and SIGKILL of the controller's group. */
	graceMs?: number;
	/** Ends a running call (reason `aborted`) and refuses new ones. */
	signal?: AbortSignal;
	/** The controller's working directory; the filesystem root by default, so relative paths in it resolve to nothing of ours. */
	cwd?: string;
}

export interface ControllerClient {
	readonly identity: ControllerIdentity;
	/** One protocol call: a fresh process, one request, one validated response or one named failure. */
	call<M extends ControllerMethod>(method: M, params: ControllerParams<M>): Promise<ControllerCallResult<ControllerResult<M>>>;
}

/** A client for one pinned controller. One client per evidence directory. */
export function createControllerClient(options: ControllerClientOptions): ControllerClient {
	const identity = ControllerIdentity.parse(options.identity);
	const controllerDir = options.evidenceDir === undefined ? null : join(options.evidenceDir, 'controller');
	let inputs: Promise<ControllerCallError | null> | null = null;
	let numbering: Promise<number> | null = null;
	const nextNumber = (): Promise<number> => {
		numbering = (numbering ?? lastCallNumber(controllerDir!)).then(last => last + 1);
		return numbering;
	};
	const copyInputsOnce = (): Promise<ControllerCallError | null> => {
		inputs ??= copyPinnedInputs(controllerDir!, identity);
		return inputs;
	};

	async function call<M extends ControllerMethod>(method: M, params: ControllerParams<M>): Promise<ControllerCallResult<ControllerResult<M>>> {
		// A caller outside TypeScript could name anything; the method also becomes a directory name.
		if (!ControllerMethod.safeParse(method).success) return failed('invalid_request', `${JSON.stringify(method)} is not a protocol 1 method`);
		let callDir: string | null = null;
		try {
			if (controllerDir !== null) callDir = await createCallDirectory(controllerDir, await nextNumber(), method);
			const outcome = await run(method, params, callDir);
			if (outcome.ok) return outcome;
			await writeCallFile(callDir, 'error.json', evidenceJson(outcome.error));
			return outcome;
		} catch (error) {
			// Only a filesystem error is a recording failure; anything else is a defect to surface.
			if ((error as NodeJS.ErrnoException).syscall === undefined) throw error;
			return {ok: false, error: {reason: 'evidence', message: `the controller call could not be recorded in ${callDir ?? controllerDir}: ${(error as Error).message}`}};
		}
	}

	async function run<M extends ControllerMethod>(method: M, params: ControllerParams<M>, callDir: string | null): Promise<ControllerCallResult<ControllerResult<M>>> {
		const request = ControllerRequest.safeParse({version: protocolVersion, method, params});
		if (!request.success) {
			await writeCallFile(callDir, 'request.json', recordable({version: protocolVersion, method, params}));
			return failed('invalid_request', `the ${method} params fail the protocol schema: ${describeIssues(request.error)}`);
		}
		const requestText = `${JSON.stringify(request.data)}\n`;
		await writeCallFile(callDir, 'request.json', requestText);
		if (options.signal?.aborted) return failed('aborted', 'the call was aborted before it started');

		const before = await verifyIdentityFiles(identity);
		if (before.length > 0) return pinFailure(before, 'before the call');
		if (controllerDir !== null) {
			const copied = await copyInputsOnce();
			if (copied !== null) return {ok: false, error: copied};
		}

		const child = await runInGroup({
			argv: identity.command,
			cwd: options.cwd ?? parse(process.cwd()).root,
			input: requestText,
			deadlineMs: options.deadlineMs ?? controllerTimeoutMs,
			...(options.graceMs === undefined ? {} : {graceMs: options.graceMs}),
			stdoutLimit: controllerStdoutLimit,
			stderrLimit: controllerStderrLimit,
			...(options.signal === undefined ? {} : {signal: options.signal}),
		});
		const stdout = child.stdout ?? Buffer.alloc(0);
		await writeCallFile(callDir, 'stderr.txt', child.stderr ?? Buffer.alloc(0));
		await writeCallFile(callDir, 'process.json', evidenceJson(child.record));

		const outcome = await judge(method, params, child.record, stdout);
		if (outcome.ok) await writeCallFile(callDir, 'response.json', stdout);
		else if (stdout.length > 0) await writeCallFile(callDir, 'stdout.txt', stdout);
		return outcome;
	}

	/** Turns one finished process into the method's result or the first thing that went wrong with it. */
	async function judge<M extends ControllerMethod>(method: M, params: ControllerParams<M>, record: ProcessRecord, stdout: Buffer): Promise<ControllerCallResult<ControllerResult<M>>> {
		// A changed input discredits whatever the call produced, so it is judged first.
		const after = await verifyIdentityFiles(identity);
		if (after.length > 0) return pinFailure(after, 'after the call');
		// A controller is run here, never by a spawner: 'spawner' cannot come, and would be a launch that did not hold.
		if (record.failure !== null) return failed(record.failure === 'spawner' ? 'spawn' : record.failure, `controller ${method}: ${record.failure_message ?? record.failure}`);
		if (record.survivors.length > 0) return failed('survivors', `controller ${method}: processes ${record.survivors.join(', ')} survived cleanup`);

		const reading = readOneJsonValue(stdout);
		const exitedBadly = record.exit_code !== 0;
		const exit = record.signal === null ? `exit status ${record.exit_code}` : `signal ${record.signal}`;
		if (reading.kind === 'one') {
			const error = ErrorResponse.safeParse(reading.value);
			if (error.success) {
				return {ok: false, error: {reason: 'error_response', code: error.data.error.code, message: `controller ${method} answered ${error.data.error.code}: ${error.data.error.message} (${exit})`}};
			}
		}
		if (exitedBadly) return failed('exit_status', `controller ${method} ended with ${exit}${reading.kind === 'empty' ? ' and no output' : ''}`);
		if (reading.kind === 'empty') return failed('no_output', `controller ${method} wrote nothing on stdout`);
		if (reading.kind === 'invalid') return failed('invalid_json', `controller ${method}: ${reading.message}`);
		if (reading.kind === 'multiple') return failed('multiple_values', `controller ${method} wrote ${reading.count} JSON values on stdout; exactly one is allowed`);

		const response = controllerResponses[method].safeParse(reading.value);
		if (!response.success) return failed('schema', `controller ${method} answered outside the protocol schema: ${describeIssues(response.error)}`);
		const result = response.data.result as ControllerResult<M>;
		if (method === 'schedule') {
			const check = validateSchedule((params as ScheduleParams).task_ids, result as ScheduleResult);
			if (!check.ok) return failed('schedule', `controller schedule: ${check.message}`);
		}
		return {ok: true, value: result};
	}

	return {identity, call};
}

/** The refused request as JSON, or a note when it cannot even be serialized (a cycle, a BigInt). */
function recordable(request: unknown): string {
	try {
		return evidenceJson(request);
	} catch (error) {
		return evidenceJson({unserializable: (error as Error).message});
	}
}

function failed(reason: ControllerCallError['reason'], message: string): {ok: false; error: ControllerCallError} {
	return {ok: false, error: {reason, message}};
}

/** The first changed file is the one named; the message lists all of them. */
function pinFailure(mismatches: PinMismatch[], when: string): {ok: false; error: ControllerCallError} {
	const [first] = mismatches as [PinMismatch, ...PinMismatch[]];
	const message = mismatches.map(mismatch => mismatch.message).join('; ');
	return {ok: false, error: {reason: first.reason, file: first.file, message: `${message} (${when})`}};
}
