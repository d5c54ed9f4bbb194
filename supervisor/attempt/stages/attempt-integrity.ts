import type {LoadedCartridge} from '../../../cartridges/index.js';
import {checkSandbox} from '../../../process/index.js';
import type {Plan} from '../../plan/plan-schema.js';
import type {Integrity, IntegrityReason} from '../report/integrity-label.js';
import type {CandidateSnapshot} from '../../../engine/candidate/snapshot.js';
import type {Placement} from '../task-core/task-placement.js';

/** What the services run: the candidate loaded into the task pool, where the turns are placed, and whether the pool is a sandboxed runner's. */
export interface RunningCode {
	candidate: CandidateSnapshot | null;
	placement: Placement;
	sandboxedRunner: boolean;
}

/**
 * Whether the attempt was contained, decided from what actually ran (docs/trust.md). Under `--sandbox` tool commands,
 * the graders' runs of workspace code and host candidates run in bubblewrap; the built-in engine's own tools (file
 * reads and writes on the model's arguments) are trusted code handling untrusted input. Code loaded into the task
 * pool (a candidate's plugins, a cartridge's tools and resources) runs in the supervisor's own worker threads, unless
 * the sandboxed task runner hosts the pool.
 */
export function attemptIntegrity(plan: Plan, services: RunningCode, cartridge: LoadedCartridge | null): Integrity {
	const reasons: IntegrityReason[] = [];
	if (plan.sandbox === undefined) reasons.push('no-sandbox');
	else if (!checkSandbox().ok) reasons.push('sandbox-unavailable');
	const inSupervisor = poolInSupervisor(services);
	if (inSupervisor && services.candidate !== null) reasons.push('in-process-candidate');
	if (inSupervisor && bringsCode(plan, cartridge)) reasons.push('cartridge-tools');
	if (queueAuth(services.placement) === 'none') reasons.push('queue-without-secret');
	return reasons.length === 0 ? {label: 'contained', reasons} : {label: 'trusted-code', reasons};
}

/** Whether in-process code runs in the supervisor's own threads: unless a sandboxed task runner hosts the pool in a process of its own. */
function poolInSupervisor(services: RunningCode): boolean {
	return !services.sandboxedRunner;
}

/** A cartridge plan's tools and resources are the cartridge's own code; one that could not be loaded counts as having some. */
function bringsCode(plan: Plan, cartridge: LoadedCartridge | null): boolean {
	if (plan.cartridge === undefined) return false;
	return cartridge === null || cartridge.tools.length > 0 || cartridge.resources.length > 0;
}

/** How a queue placement authenticates its nodes' answers: `none` means anyone on its Redis can answer. */
function queueAuth(placement: Placement): string | null {
	return placement.kind === 'queue' ? placement.remote.queue.auth ?? null : null;
}
