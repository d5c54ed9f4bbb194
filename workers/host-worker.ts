// The loop and its error alone, as a task thread imports them: the engine's index (compiler, candidate loader) stays out.
import {failureOf} from '../engine/engine-error.js';
import {runAgent} from '../engine/loop/run-agent.js';
import type {ExecutionOutcome} from '../engine/outcome.js';
import {HostRequest, HostResponse, hostProtocolVersion} from './host-protocol.js';
import type {BinaryIdentity} from './host-identity.js';
import {describeIssues} from '../controller-protocol/describe-issues.js';

export type HostWorkerAnswer =
	| {ok: true; response: HostResponse}
	| {ok: false; message: string};

/**
 * Serves one host-worker request (protocol v1): runs the task's agent with this installation's engine and
 * answers with the outcome and the identity of the binary that ran. It never grades.
 */
export async function serveHostRequest(input: string, identity: BinaryIdentity): Promise<HostWorkerAnswer> {
	let request: HostRequest;
	try {
		const parsed = HostRequest.safeParse(JSON.parse(input));
		if (!parsed.success) return {ok: false, message: `not a host-worker v${hostProtocolVersion} request: ${describeIssues(parsed.error)}`};
		request = parsed.data;
	} catch (error) {
		return {ok: false, message: `the request is not JSON: ${(error as Error).message}`};
	}
	let outcome: ExecutionOutcome;
	try {
		outcome = await runAgent({
			task: request.task,
			workspace: request.workspace,
			stateDir: request.state_dir,
			provider: request.provider,
			maxSteps: request.max_steps,
			deadlineMs: request.deadline_ms,
			plugins: [],
		});
	} catch (error) {
		// An engine error keeps the class it was thrown with; anything else is a crash of this host.
		// The loop may have spent tokens before it threw, so usage is unknown rather than zero.
		outcome = {
			status: 'failed',
			...failureOf(error),
			steps: 0,
			usage: {turns: 0, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: null, cost_usd: null},
			final_text: null,
			stopped_by: null,
			time: null,
			infrastructure: null,
		};
	}
	return {ok: true, response: HostResponse.parse({version: hostProtocolVersion, binary: identity, task_id: request.task.id, outcome})};
}
