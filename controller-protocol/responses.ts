import {z} from 'zod';
import {AcceptResult, ProtocolVersion, ScheduleResult, ScoreResult, SetupResult, TasksResult, type ControllerMethod} from './methods.js';

/** Error codes the SDK dispatcher uses; a controller may use its own. */
export const dispatcherErrorCodes = ['invalid_request', 'unsupported_version', 'not_implemented', 'failed', 'invalid_result'] as const;

/** What a controller answers when it cannot answer the call; the process also exits non-zero. */
export const ErrorResponse = z.strictObject({
	version: ProtocolVersion,
	error: z.strictObject({
		code: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'an error code is a short snake_case word'),
		message: z.string(),
	}),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

function resultResponse<R extends z.ZodType>(result: R) {
	return z.strictObject({version: ProtocolVersion, result});
}

/** The success response of each method: its result, wrapped with the protocol version. */
export const TasksResponse = resultResponse(TasksResult);
export const ScheduleResponse = resultResponse(ScheduleResult);
export const SetupResponse = resultResponse(SetupResult);
export const ScoreResponse = resultResponse(ScoreResult);
export const AcceptResponse = resultResponse(AcceptResult);

export const controllerResponses = {
	tasks: TasksResponse,
	schedule: ScheduleResponse,
	setup: SetupResponse,
	score: ScoreResponse,
	accept: AcceptResponse,
} as const;

export type ResultResponse<M extends ControllerMethod> = z.infer<(typeof controllerResponses)[M]>;
