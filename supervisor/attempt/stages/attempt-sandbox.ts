import {homedir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {distPath, installRoot} from '../../../files/install-root.js';
import {publishSandbox, type Sandbox} from '../../../process/index.js';
import type {HostSession} from '../../host/index.js';
import type {Plan} from '../../plan/plan-schema.js';
import {keyStoreDir} from '../../evidence/seal/index.js';

/**
 * What a sandboxed command of this attempt must not see: the evidence, the other tasks' runtime state, the plan, the
 * suite's graders and expected data, home. A task's own workspace (and a host's state) is bound back in, writable.
 */
export function hiddenFromTasks(plan: Plan, evidenceDir: string, planPath: string, runtimeDir: string | null): string[] {
	const home = [homedir(), process.env.HOME].filter((dir): dir is string => dir !== undefined && dir !== '' && dir !== '/');
	const suite = plan.controller === null ? [join(installRoot, 'tasks'), distPath('tasks')] : [];
	// The key store too (it may sit outside home, e.g. HLAB_STATE_DIR): the seal's key is never in a task's view.
	return [...new Set([resolve(evidenceDir), ...(runtimeDir === null ? [] : [runtimeDir]), resolve(planPath), ...suite, ...home, keyStoreDir()])];
}

/**
 * A sandboxed plan's tool commands find their sandbox in the environment the worker threads copy when they start,
 * so it is published before any thread exists; an unsandboxed plan publishes nothing.
 */
export function publishAttemptSandbox(plan: Plan, evidenceDir: string, planPath: string, runtimeDir: string | null): void {
	publishSandbox(plan.sandbox === undefined ? null : {hidden: hiddenFromTasks(plan, evidenceDir, planPath, runtimeDir), network: false});
}

/**
 * A host candidate runs sandboxed too: its workspace and state writable, the same paths and the host folder hidden,
 * the provider reachable (so the host's own tool commands, which run inside its sandbox, have the network too).
 */
export function hostSandbox(plan: Plan, evidenceDir: string, planPath: string, runtimeDir: string | null, host: HostSession): ((writable: string[]) => Sandbox) | undefined {
	if (plan.sandbox === undefined) return undefined;
	const hidden = [...hiddenFromTasks(plan, evidenceDir, planPath, runtimeDir), resolve(host.dir)];
	// The executable's folder (a build is the whole folder) stays readable even under the private /tmp.
	const readable = [...new Set([dirname(host.identity.path), dirname(host.identity.launched)])];
	return writable => ({writable, readable, hidden, network: true});
}
