import {homedir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {distPath, installRoot} from '../../../files/install-root.js';
import {containmentVariable, publishSandbox, sandboxVariable, type Sandbox} from '../../../process/index.js';
import type {HostSession} from '../../host/index.js';
import type {Plan} from '../../plan/plan-schema.js';

/**
 * What a sandboxed command of this attempt must not see: the evidence, the other tasks' runtime state, the plan, the
 * suite's graders and expected data, home. A task's own workspace (and a host's state) is bound back in, writable.
 */
export function hiddenFromTasks(plan: Plan, evidenceDir: string, planPath: string, runtimeDir: string | null): string[] {
	const home = [homedir(), process.env.HOME].filter((dir): dir is string => dir !== undefined && dir !== '' && dir !== '/');
	const suite = plan.controller === null ? [join(installRoot, 'tasks'), distPath('tasks')] : [];
	return [...new Set([resolve(evidenceDir), ...(runtimeDir === null ? [] : [runtimeDir]), resolve(planPath), ...suite, ...home])];
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

/**
 * The sandboxed task runner's sandbox: the same paths hidden (and a cartridge's folder, whose cases are the scorer's),
 * the attempt's runtime folder writable, since every task's workspace and state live there. The network stays, as a
 * host's does, so the runner reaches its tasks' metering proxies on loopback; its tool commands get their own sandbox.
 * Null for an unsandboxed plan; a problem when the tasks' state would live inside the hidden evidence directory.
 */
export function runnerSandbox(plan: Plan, evidenceDir: string, planPath: string, runtimeDir: string | null, cartridgeDir: string | null): Sandbox | {problem: string} | null {
	if (plan.sandbox === undefined) return null;
	if (runtimeDir === null) return {problem: 'the sandboxed task runner needs a runtime root outside the evidence directory (HLAB_RUNTIME_ROOT=evidence keeps the tasks\' state inside it)'};
	// The runtime folder is bound whole, writable: hiding it too would remount it read-only over the bind.
	const hidden = [...hiddenFromTasks(plan, evidenceDir, planPath, null), ...(cartridgeDir === null ? [] : [resolve(cartridgeDir)])];
	return {writable: [runtimeDir], readable: [], hidden, network: true};
}

/** Variables that carry a credential by their name. */
const secretName = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;
/** harness-lab's own variables the runner needs: the sandbox its commands take, the containment backend. */
const runnerVariables = new Set([sandboxVariable, containmentVariable]);

/**
 * The runner's whole environment: the supervisor's, minus the provider's key variable, anything named like a
 * credential and every `HLAB_*` variable but the markers (`KEY=1`, by which leaks are found) and the runner's own.
 */
export function runnerEnvironment(keyVariable: string | null, env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
	const kept: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(env)) {
		if (name === keyVariable || secretName.test(name)) continue;
		if (name.startsWith('HLAB_') && value !== '1' && !runnerVariables.has(name)) continue;
		kept[name] = value;
	}
	return kept;
}
