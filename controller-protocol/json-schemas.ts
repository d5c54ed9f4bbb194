import {z} from 'zod';
import {ControllerIdentity} from './identity.js';
import {AcceptRequest, ControllerRequest, ScheduleRequest, ScoreRequest, SetupRequest, TasksRequest} from './methods.js';
import {AcceptResponse, ErrorResponse, ScheduleResponse, ScoreResponse, SetupResponse, TasksResponse} from './responses.js';

/** The committed JSON Schema files of protocol 1, by file name under `controller-protocol/schema/`. */
const published: Record<string, {title: string; schema: z.ZodType}> = {
	'request.json': {title: 'Any controller request', schema: ControllerRequest},
	'tasks-request.json': {title: 'tasks request', schema: TasksRequest},
	'tasks-response.json': {title: 'tasks response', schema: TasksResponse},
	'schedule-request.json': {title: 'schedule request', schema: ScheduleRequest},
	'schedule-response.json': {title: 'schedule response', schema: ScheduleResponse},
	'setup-request.json': {title: 'setup request', schema: SetupRequest},
	'setup-response.json': {title: 'setup response', schema: SetupResponse},
	'score-request.json': {title: 'score request', schema: ScoreRequest},
	'score-response.json': {title: 'score response', schema: ScoreResponse},
	'accept-request.json': {title: 'accept request', schema: AcceptRequest},
	'accept-response.json': {title: 'accept response', schema: AcceptResponse},
	'error-response.json': {title: 'error response', schema: ErrorResponse},
	'controller-identity.json': {title: 'controller identity', schema: ControllerIdentity},
};

/**
 * The text of every schema file, generated from the zod schemas. Checks that JSON Schema cannot
 * express (unique task ids, every command path pinned, a schedule covering every task) are not in them.
 */
export function renderJsonSchemas(): Map<string, string> {
	const files = new Map<string, string>();
	for (const [name, {title, schema}] of Object.entries(published)) {
		const {$schema, ...rest} = z.toJSONSchema(schema, {target: 'draft-2020-12', unrepresentable: 'throw'});
		const json = {$schema, title: `harness-lab controller protocol 1: ${title}`, ...rest};
		files.set(name, `${JSON.stringify(json, null, '\t')}\n`);
	}
	return files;
}
