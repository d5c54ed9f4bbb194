/** An error the scripted server answers in the OpenAI API's shape. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly type: 'invalid_request_error' | 'server_error' | 'not_found_error',
		readonly code: string | null = null,
		readonly param: string | null = null,
	) {
		super(message);
	}

	body(): {error: {message: string; type: string; param: string | null; code: string | null}} {
		return {error: {message: this.message, type: this.type, param: this.param, code: this.code}};
	}
}
