import {z} from 'zod';

/** Why a controller call gave no usable answer; each is its own explicit failure, never a default answer. */
export const ControllerFailureReason = z.enum([
	/** The params fail the protocol schema; nothing was run. */
	'invalid_request',
	/** A pinned file is gone or unreadable, before or after the call. */
	'missing_file',
	/** A pinned file's bytes differ from its pin, before or after the call. */
	'digest_mismatch',
	/** The call's evidence could not be written. */
	'evidence',
	'spawn',
	'timeout',
	'stdout_limit',
	'stderr_limit',
	'aborted',
	/** Processes of the controller's tree outlived cleanup. */
	'survivors',
	/** The controller exited non-zero or by a signal without an error response. */
	'exit_status',
	/** The controller answered with a protocol error response. */
	'error_response',
	'no_output',
	'invalid_json',
	'multiple_values',
	/** The response is JSON but not the method's response schema. */
	'schema',
	/** A schedule that does not run every task exactly once. */
	'schedule',
]);
export type ControllerFailureReason = z.infer<typeof ControllerFailureReason>;

export const ControllerCallError = z.object({
	reason: ControllerFailureReason,
	message: z.string(),
	/** The pinned file concerned, for `missing_file` and `digest_mismatch`. */
	file: z.string().optional(),
	/** The controller's error code, for `error_response`. */
	code: z.string().optional(),
});
export type ControllerCallError = z.infer<typeof ControllerCallError>;

export type ControllerCallResult<T> = {ok: true; value: T} | {ok: false; error: ControllerCallError};
