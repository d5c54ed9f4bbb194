import {z} from 'zod';
import {ReportSummary} from './report-summary.js';
import {AbsolutePath, ControllerTask, TaskId, repeatedIds} from './task.js';

export const protocolVersion = 1;
export const ProtocolVersion = z.literal(protocolVersion);

export const maxConcurrency = 256;

/** `tasks`: no input; the controller's whole task source, in its order. */
export const TasksParams = z.strictObject({});
export type TasksParams = z.infer<typeof TasksParams>;

export const TasksResult = z.strictObject({
	tasks: z.array(ControllerTask).min(1),
}).superRefine((result, context) => {
	for (const id of repeatedIds(result.tasks.map(task => task.id))) {
		context.addIssue({code: 'custom', path: ['tasks'], message: `task id ${id} occurs more than once`});
	}
});
export type TasksResult = z.infer<typeof TasksResult>;

/** `schedule`: the selected task ids, in task-source order. */
export const ScheduleParams = z.strictObject({
	task_ids: z.array(TaskId).min(1),
}).superRefine((params, context) => {
	for (const id of repeatedIds(params.task_ids)) {
		context.addIssue({code: 'custom', path: ['task_ids'], message: `task id ${id} occurs more than once`});
	}
});
export type ScheduleParams = z.infer<typeof ScheduleParams>;

/** The run order (every task exactly once; see `validateSchedule`) and how many tasks run at once. */
export const ScheduleResult = z.strictObject({
	order: z.array(TaskId).min(1),
	concurrency: z.number().int().min(1).max(maxConcurrency),
});
export type ScheduleResult = z.infer<typeof ScheduleResult>;

/** `setup`: prepare a fresh, empty workspace for one task. */
export const SetupParams = z.strictObject({
	task: ControllerTask,
	workspace: AbsolutePath,
});
export type SetupParams = z.infer<typeof SetupParams>;

export const SetupResult = z.strictObject({
	/** A note for the evidence, if the controller has one. */
	details: z.string().optional(),
});
export type SetupResult = z.infer<typeof SetupResult>;

/**
 * `score`: grade one finished (or failed) execution. `messages` and `result` are what the
 * execution recorded; a grader should judge the workspace, not these claims.
 */
export const ScoreParams = z.strictObject({
	task: ControllerTask,
	workspace: AbsolutePath,
	/** The execution's transcript, one object per message, as recorded in messages.jsonl. */
	messages: z.array(z.record(z.string(), z.unknown())),
	/** The execution's result.json, or null when the execution left none. */
	result: z.record(z.string(), z.unknown()).nullable(),
});
export type ScoreParams = z.infer<typeof ScoreParams>;

export const ScoreResult = z.strictObject({
	passed: z.boolean(),
	score: z.number().min(0).max(1).optional(),
	details: z.string(),
});
export type ScoreResult = z.infer<typeof ScoreResult>;

/** `accept`: decide on a candidate from both report summaries and the policy declared in the plan. */
export const AcceptParams = z.strictObject({
	baseline: ReportSummary,
	candidate: ReportSummary,
	/** The experiment policy exactly as declared; its meaning belongs to the controller. */
	policy: z.record(z.string(), z.unknown()),
});
export type AcceptParams = z.infer<typeof AcceptParams>;

export const Decision = z.enum(['accept', 'reject', 'revise']);
export type Decision = z.infer<typeof Decision>;

export const AcceptResult = z.strictObject({
	decision: Decision,
	reason: z.string().min(1),
});
export type AcceptResult = z.infer<typeof AcceptResult>;

/** Every method of protocol 1 with its params and result schemas. */
export const controllerMethods = {
	tasks: {params: TasksParams, result: TasksResult},
	schedule: {params: ScheduleParams, result: ScheduleResult},
	setup: {params: SetupParams, result: SetupResult},
	score: {params: ScoreParams, result: ScoreResult},
	accept: {params: AcceptParams, result: AcceptResult},
} as const;

export const ControllerMethod = z.enum(['tasks', 'schedule', 'setup', 'score', 'accept']);
export type ControllerMethod = z.infer<typeof ControllerMethod>;

export type ControllerParams<M extends ControllerMethod> = z.infer<(typeof controllerMethods)[M]['params']>;
export type ControllerResult<M extends ControllerMethod> = z.infer<(typeof controllerMethods)[M]['result']>;

function request<M extends ControllerMethod, P extends z.ZodType>(method: M, params: P) {
	return z.strictObject({version: ProtocolVersion, method: z.literal(method), params});
}

export const TasksRequest = request('tasks', TasksParams);
export const ScheduleRequest = request('schedule', ScheduleParams);
export const SetupRequest = request('setup', SetupParams);
export const ScoreRequest = request('score', ScoreParams);
export const AcceptRequest = request('accept', AcceptParams);

/** The one JSON value harness-lab writes on a controller's stdin. */
export const ControllerRequest = z.discriminatedUnion('method', [TasksRequest, ScheduleRequest, SetupRequest, ScoreRequest, AcceptRequest]);
export type ControllerRequest = z.infer<typeof ControllerRequest>;
