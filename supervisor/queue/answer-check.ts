import {answerClaim, sealMatches, type JobBinding} from './queue-seal.js';
import {TaskJobReturn} from './task-message.js';

/** An answer the coordinator takes, or why it refused it and whom it claimed to come from. */
export type AnswerCheck = {accepted: TaskJobReturn} | {refused: string; claimed: string | null};

export interface AnswerExpectation {
	/** The job as this coordinator published it, never as Redis now holds it. */
	binding: JobBinding;
	/** null on an unauthenticated queue (--insecure-queue): then only the shape and the task are checked. */
	secret: string | null;
	/** The nodes admitted for this attempt, with the nonces each admitted itself with. */
	admitted: ReadonlyMap<string, ReadonlySet<string>>;
	/** The node BullMQ says took the job, if it says. */
	heldBy: string | undefined;
}

/**
 * Whether an answer read from a job is one to record: from an admitted node, sealed with the secret over the whole
 * answer and this job's binding (so a forged answer, or one copied from another job or attempt, is refused), for the
 * task the job asked, by the node that holds the job. The seal is checked on the bytes as they came, before any parsing.
 */
export function checkAnswer(raw: unknown, expected: AnswerExpectation): AnswerCheck {
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {refused: 'the job holds no answer', claimed: null};
	const answer = raw as Record<string, unknown>;
	const claimed = typeof answer.worker === 'string' ? answer.worker : null;
	const refuse = (why: string): AnswerCheck => ({refused: why, claimed});
	if (claimed === null) return refuse('the answer names no node');
	if (expected.secret !== null) {
		const sealed = sealedBy(answer, claimed, expected);
		if (sealed !== null) return refuse(sealed);
	}
	if (expected.heldBy !== undefined && expected.heldBy !== claimed) return refuse(`the job is held by node ${expected.heldBy}`);
	const parsed = TaskJobReturn.safeParse(raw);
	if (!parsed.success) return refuse(`the answer could not be read: ${parsed.error.message.slice(0, 200)}`);
	const {result} = parsed.data;
	if (result.index !== expected.binding.index || result.task_id !== expected.binding.task_id) return refuse(`it answers task ${result.index} ${result.task_id}`);
	return {accepted: parsed.data};
}

/** Why the seal does not hold, or null when it does. */
function sealedBy(answer: Record<string, unknown>, claimed: string, expected: AnswerExpectation): string | null {
	const nonces = expected.admitted.get(claimed);
	if (nonces === undefined) return `node ${claimed} was not admitted for this attempt`;
	const seal = answer.seal as {node_nonce?: unknown; mac?: unknown} | null | undefined;
	if (typeof seal !== 'object' || seal === null) return 'the answer is not sealed';
	const nodeNonce = seal.node_nonce;
	if (typeof nodeNonce !== 'string' || !nonces.has(nodeNonce)) return `the seal is not from an admission of node ${claimed}`;
	if (!sealMatches(expected.secret!, answerClaim(expected.binding, claimed, nodeNonce, answer), seal.mac)) return 'its seal does not match this job and answer (forged, altered, or replayed from another job)';
	return null;
}
