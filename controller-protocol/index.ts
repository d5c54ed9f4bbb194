export {AbsolutePath, ControllerTask, RelativePath, TaskId} from './task.js';
export {ControllerIdentity, FileDigest, PinnedPath} from './identity.js';
export {ReportSummary, ReportTotals, TaskSummary} from './report-summary.js';
export {
	AcceptParams, AcceptRequest, AcceptResult, ControllerMethod, ControllerRequest, Decision, ProtocolVersion,
	ScheduleParams, ScheduleRequest, ScheduleResult, ScoreParams, ScoreRequest, ScoreResult,
	SetupParams, SetupRequest, SetupResult, TasksParams, TasksRequest, TasksResult,
	controllerMethods, maxConcurrency, protocolVersion,
	type ControllerParams, type ControllerResult,
} from './methods.js';
export {
	AcceptResponse, ErrorResponse, ScheduleResponse, ScoreResponse, SetupResponse, TasksResponse,
	controllerResponses, dispatcherErrorCodes, type ResultResponse,
} from './responses.js';
export {validateSchedule, type ScheduleCheck} from './validate-schedule.js';
export {describeIssues} from './describe-issues.js';
